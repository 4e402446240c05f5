import { useState } from 'react';
import { ruleBasis } from '@contracts/alert-rule-basis';
import { ALERT_RULE_TYPES, ALERT_RULE_WINDOWS, CreateAlertRule, SMS_UNAVAILABLE, type AlertRuleType } from '@contracts/alert-settings';
import { Link } from 'react-router';
import { lowestPlanWith, PLAN_NAMES, planHasFeature } from '@contracts/plans';
import { upgradeLinks } from '../../../components/plan-required-banner';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useDomains } from '../../../lib/queries/domains';
import { useAuth } from '../../../lib/session';
import { useAlertSettings, useCreateRuleMutation } from '../api';
import { directionHint, thresholdProblem, windowLabel } from '../rule-format';

const TYPES = Object.entries(ALERT_RULE_TYPES) as [AlertRuleType, (typeof ALERT_RULE_TYPES)[AlertRuleType]][];
/** The plan the Slack, SMS and webhook channels need (the server's 403 names the same). */
const channelsPlan = lowestPlanWith('advanced_alerting');

const CHANNELS = [
  { id: 'email', label: 'Email', gated: false },
  { id: 'webhook', label: 'Webhook', gated: true },
  { id: 'slack', label: 'Slack', gated: true },
  { id: 'sms', label: 'SMS', gated: true },
] as const;
type Channel = (typeof CHANNELS)[number]['id'];
type Errors = Partial<Record<'name' | 'domain' | 'warning' | 'critical' | 'form', string>>;

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** The field a server message names ("threshold.critical must be ..."), or the form as a whole. */
function fieldOf(message: string): keyof Errors {
  if (message.startsWith('threshold.warning')) return 'warning';
  if (message.startsWith('threshold.critical')) return 'critical';
  if (message.startsWith('name')) return 'name';
  if (message.startsWith('domain')) return 'domain';
  return 'form';
}

/** Create Alert Rule: the documented rule entity (part 2, section 3) as a form. */
export function CreateRuleDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user } = useAuth();
  const canUseChannels = user ? planHasFeature(user.subscriptionPlan, 'advanced_alerting') : false;
  // The server refuses a texting rule when it has no SMS provider (409): the box says so before.
  const smsAvailable = useAlertSettings().data?.smsAvailable !== false;
  const domains = useDomains();
  const create = useCreateRuleMutation();
  const [name, setName] = useState('');
  const [type, setType] = useState<AlertRuleType>('bounceRate');
  const [domain, setDomain] = useState('');
  const [warning, setWarning] = useState('5');
  const [critical, setCritical] = useState('10');
  const [timeWindow, setTimeWindow] = useState<(typeof ALERT_RULE_WINDOWS)[number]>('1h');
  const [channels, setChannels] = useState<Record<Channel, boolean>>({ email: true, webhook: false, slack: false, sms: false });
  const [errors, setErrors] = useState<Errors>({});
  const unit = ALERT_RULE_TYPES[type].unit;

  function submit() {
    const body: CreateAlertRule = {
      name: name.trim(),
      type,
      domain: domain || null,
      threshold: { warning: warning.trim() === '' ? Number.NaN : Number(warning), critical: critical.trim() === '' ? Number.NaN : Number(critical) },
      notifications: channels,
      timeWindow,
    };
    const parsed = CreateAlertRule.safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const [first, second] = issue.path;
        const field: keyof Errors =
          first === 'threshold' ? (second === 'critical' ? 'critical' : 'warning') : first === 'name' || first === 'domain' ? first : 'form';
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    const problem = thresholdProblem(type, parsed.data.threshold.warning, parsed.data.threshold.critical);
    if (problem) {
      setErrors({ [problem.field]: problem.message });
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (rule) => {
        toast({ title: 'Alert rule created', description: rule.name });
        onOpenChange(false);
      },
      onError: (failure) => {
        const message = serverMessageOr(failure, 'Failed to create alert rule');
        setErrors({ [fieldOf(message)]: message });
        toast({ title: 'Error', description: message, variant: 'destructive' });
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="create-rule-dialog" className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create Alert Rule</DialogTitle>
          <DialogDescription>Watch one figure of your mail and be alerted when it crosses a threshold.</DialogDescription>
        </DialogHeader>
        <form
          aria-label="Create Alert Rule"
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id="rule-name" label="Name" error={errors.name}>
            <Input autoComplete="off" placeholder="High bounce rate" value={name} onChange={(event) => setName(event.target.value)} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <label htmlFor="rule-type" className="text-sm font-medium">
                Type
              </label>
              <select id="rule-type" className={selectClass} value={type} onChange={(event) => setType(event.target.value as AlertRuleType)}>
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
                value={domain}
                onChange={(event) => setDomain(event.target.value)}
                aria-invalid={errors.domain ? true : undefined}
              >
                <option value="">All domains</option>
                {(domains.data ?? []).map((each) => (
                  <option key={each.id} value={each.domain}>
                    {each.domain}
                  </option>
                ))}
              </select>
              {errors.domain && <p className="text-sm font-medium text-destructive">{errors.domain}</p>}
            </div>
          </div>
          <p className="text-sm text-muted-foreground" data-testid="rule-direction">
            {directionHint(type)}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="rule-warning" label={`Warning threshold${unit ? ` (${unit})` : ''}`} error={errors.warning}>
              <Input type="number" inputMode="decimal" min={0} step="any" value={warning} onChange={(event) => setWarning(event.target.value)} />
            </FormField>
            <FormField id="rule-critical" label={`Critical threshold${unit ? ` (${unit})` : ''}`} error={errors.critical}>
              <Input type="number" inputMode="decimal" min={0} step="any" value={critical} onChange={(event) => setCritical(event.target.value)} />
            </FormField>
          </div>
          <div className="space-y-2">
            <label htmlFor="rule-window" className="text-sm font-medium">
              Time window
            </label>
            <select
              id="rule-window"
              className={selectClass}
              value={timeWindow}
              aria-describedby="rule-basis"
              onChange={(event) => setTimeWindow(event.target.value as typeof timeWindow)}
            >
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
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={channels[id]}
                    disabled={(gated && !canUseChannels) || (id === 'sms' && !smsAvailable)}
                    onChange={(event) => setChannels((old) => ({ ...old, [id]: event.target.checked }))}
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
                <Link to={upgradeLinks(channelsPlan).upgrade} className="font-medium text-primary underline underline-offset-4">
                  Upgrade
                </Link>
              </p>
            )}
          </fieldset>
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Rule'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
