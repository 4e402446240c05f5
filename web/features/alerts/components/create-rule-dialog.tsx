import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Link } from 'react-router';
import { ruleBasis } from '@contracts/alert-rule-basis';
import { ALERT_RULE_TYPES, ALERT_RULE_WINDOWS, SMS_UNAVAILABLE, type AlertRuleType } from '@contracts/alert-settings';
import { lowestPlanWith, PLAN_NAMES, planHasFeature } from '@contracts/plans';
import { Form, FormError, SubmitButton } from '../../../components/form';
import { upgradeLinks } from '../../../components/plan-required-banner';
import { Button } from '../../../components/ui/button';
import { DialogFooter, ModalDialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { useDomains } from '../../../lib/queries/domains';
import { useAuth } from '../../../lib/session';
import { useAlertSettings, useCreateRuleMutation } from '../api';
import { directionHint, windowLabel } from '../rule-format';
import { ruleBody, ruleFieldOf, RuleFields, type RuleFieldsInput } from '../rule-fields';

const TYPES = Object.entries(ALERT_RULE_TYPES) as [AlertRuleType, (typeof ALERT_RULE_TYPES)[AlertRuleType]][];
/** The plan the Slack, SMS and webhook channels need (the server's 403 names the same). */
const channelsPlan = lowestPlanWith('advanced_alerting');

const CHANNELS = [
  { id: 'email', label: 'Email', gated: false },
  { id: 'webhook', label: 'Webhook', gated: true },
  { id: 'slack', label: 'Slack', gated: true },
  { id: 'sms', label: 'SMS', gated: true },
] as const;
const DEFAULTS: RuleFieldsInput = {
  name: '',
  type: 'bounceRate',
  domain: '',
  warning: '5',
  critical: '10',
  timeWindow: '1h',
  notifications: { email: true, webhook: false, slack: false, sms: false },
};

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** Create Alert Rule: the documented rule entity (part 2, section 3) as a form. */
export function CreateRuleDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateRuleMutation();
  return (
    <ModalDialog
      open={open}
      onOpenChange={onOpenChange}
      data-testid="create-rule-dialog"
      className="max-h-[calc(100dvh-2rem)] overflow-y-auto"
      title="Create Alert Rule"
      description="Watch one figure of your mail and be alerted when it crosses a threshold."
    >
      <Form
        schema={RuleFields}
        defaultValues={DEFAULTS}
        pending={create.isPending}
        fieldOf={ruleFieldOf}
        aria-label="Create Alert Rule"
        className="space-y-4"
        onSubmit={(values, refuse) =>
          create.mutate(ruleBody(values), {
            onSuccess: (rule) => {
              toast({ title: 'Alert rule created', description: rule.name });
              onOpenChange(false);
            },
            onError: (failure) =>
              toast({
                title: 'Error',
                description: refuse(failure, 'Failed to create alert rule'),
                variant: 'destructive',
              }),
          })
        }
      >
        {(form) => <RuleFieldset form={form} onCancel={() => onOpenChange(false)} />}
      </Form>
    </ModalDialog>
  );
}

function RuleFieldset({
  form,
  onCancel,
}: {
  form: UseFormReturn<RuleFieldsInput, unknown, z.output<typeof RuleFields>>;
  onCancel: () => void;
}) {
  const { user } = useAuth();
  const canUseChannels = user ? planHasFeature(user.subscriptionPlan, 'advanced_alerting') : false;
  // The server refuses a texting rule when it has no SMS provider (409): the box says so before.
  const smsAvailable = useAlertSettings().data?.smsAvailable !== false;
  const domains = useDomains();
  const [type, domain, timeWindow] = useWatch({ control: form.control, name: ['type', 'domain', 'timeWindow'] });
  const { errors } = form.formState;
  const unit = ALERT_RULE_TYPES[type].unit;
  return (
    <>
      <FormField id="rule-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="off" placeholder="High bounce rate" {...form.register('name')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <label htmlFor="rule-type" className="text-sm font-medium">
            Type
          </label>
          <select id="rule-type" className={selectClass} {...form.register('type')}>
            {TYPES.map(([id, { label }]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-2">
          <label htmlFor="rule-domain" className="text-sm font-medium">
            Domain
          </label>
          <select
            id="rule-domain"
            className={selectClass}
            {...form.register('domain')}
            aria-invalid={errors.domain ? true : undefined}
          >
            <option value="">All domains</option>
            {(domains.data ?? []).map((each) => (
              <option key={each.id} value={each.domain}>
                {each.domain}
              </option>
            ))}
          </select>
          {errors.domain && <p className="text-sm font-medium text-destructive">{errors.domain.message}</p>}
        </div>
      </div>
      <p className="text-sm text-muted-foreground" data-testid="rule-direction">
        {directionHint(type)}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="rule-warning"
          label={`Warning threshold${unit ? ` (${unit})` : ''}`}
          error={errors.warning?.message}
        >
          <Input type="number" inputMode="decimal" min={0} step="any" {...form.register('warning')} />
        </FormField>
        <FormField
          id="rule-critical"
          label={`Critical threshold${unit ? ` (${unit})` : ''}`}
          error={errors.critical?.message}
        >
          <Input type="number" inputMode="decimal" min={0} step="any" {...form.register('critical')} />
        </FormField>
      </div>
      <div className="space-y-2">
        <label htmlFor="rule-window" className="text-sm font-medium">
          Time window
        </label>
        <select id="rule-window" className={selectClass} aria-describedby="rule-basis" {...form.register('timeWindow')}>
          {ALERT_RULE_WINDOWS.map((each) => (
            <option key={each} value={each}>
              {windowLabel(each)}
            </option>
          ))}
        </select>
        <p id="rule-basis" className="text-xs text-muted-foreground" data-testid="rule-basis">
          {ruleBasis(type, timeWindow, domain || null)}
        </p>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Channels</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {CHANNELS.map(({ id, label, gated }) => (
            <label key={id} className="flex items-center gap-2 text-sm">
              {/* A Controller, not register: react-hook-form would drop a disabled box's value. */}
              <Controller
                control={form.control}
                name={`notifications.${id}`}
                render={({ field }) => (
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={field.value === true}
                    disabled={(gated && !canUseChannels) || (id === 'sms' && !smsAvailable)}
                    onChange={(event) => field.onChange(event.target.checked)}
                  />
                )}
              />
              {label}
            </label>
          ))}
        </div>
        {canUseChannels && !smsAvailable && (
          <p className="text-xs text-muted-foreground" data-testid="rule-sms-unavailable">
            {SMS_UNAVAILABLE}
          </p>
        )}
        {!canUseChannels && (
          <p className="text-xs text-muted-foreground" data-testid="rule-channels-plan-lock">
            Webhook, Slack and SMS: Requires {PLAN_NAMES[channelsPlan]} plan.{' '}
            <Link
              to={upgradeLinks(channelsPlan).upgrade}
              className="font-medium text-primary underline underline-offset-4"
            >
              Upgrade
            </Link>
          </p>
        )}
      </fieldset>
      <FormError />
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton pending="Creating...">Create Rule</SubmitButton>
      </DialogFooter>
    </>
  );
}
