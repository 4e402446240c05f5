import { useState } from 'react';
import { Plus } from 'lucide-react';
import { ALERT_RULE_TYPES, type AlertRule } from '@contracts/alert-settings';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeleteIconButton } from '../../../components/delete-icon-button';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useAlertRules, useDeleteRuleMutation } from '../api';
import { channelsInWords, thresholdInWords, windowLabel } from '../rule-format';
import { CreateRuleDialog } from './create-rule-dialog';

function RuleRow({ rule, onDelete }: { rule: AlertRule; onDelete: () => void }) {
  return (
    <li data-testid="alert-rule" data-rule-id={rule.id} className="flex items-start gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium wrap-anywhere">{rule.name}</p>
        <p className="text-sm text-muted-foreground">
          {ALERT_RULE_TYPES[rule.type].label} · <span className="wrap-anywhere">{rule.domain ?? 'All domains'}</span>
        </p>
        <p className="text-sm">
          Warning {thresholdInWords(rule.type, rule.threshold.warning)} · Critical{' '}
          {thresholdInWords(rule.type, rule.threshold.critical)}
        </p>
        <p className="text-xs text-muted-foreground">
          Over {windowLabel(rule.timeWindow)} · {channelsInWords(rule.notifications)}
          {!rule.enabled && ' · Paused'}
        </p>
        {rule.judgedOn && (
          <p className="text-xs text-muted-foreground" data-testid="rule-judged-on">
            {rule.judgedOn}
          </p>
        )}
      </div>
      <DeleteIconButton aria-label={`Delete rule ${rule.name}`} onClick={onDelete} />
    </li>
  );
}

/** "Alert rules" in the Settings tab: the user's rules, Create Rule and delete with confirmation. */
export function AlertRules() {
  const rules = useAlertRules();
  const remove = useDeleteRuleMutation();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);

  const confirmDelete = (rule: AlertRule) =>
    remove.mutate(rule.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Alert rule deleted', description: rule.name });
      },
      onError: (failure) =>
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Failed to delete alert rule'),
          variant: 'destructive',
        }),
    });

  return (
    <Card data-testid="alert-rules">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="space-y-1.5">
          <CardTitle className="text-base">Alert rules</CardTitle>
          <CardDescription>
            Thresholds of your own for one figure, one domain or all, over a time window.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Create Rule
        </Button>
      </CardHeader>
      <CardContent>
        <QueryState
          query={rules}
          loading={<Spinner className="size-6" label="Loading alert rules" />}
          errorMessage="Could not load your alert rules."
        >
          {(list) =>
            list.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="rules-empty">
                No alert rules yet. The thresholds above apply to all your domains; a rule adds one of your own.
              </p>
            ) : (
              <ul className="space-y-2">
                {list.map((rule) => (
                  <RuleRow key={rule.id} rule={rule} onDelete={() => setDeleting(rule)} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
      {creating && <CreateRuleDialog open onOpenChange={setCreating} />}
      {deleting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDeleting(null)}
          title="Delete Alert Rule"
          description={`Are you sure you want to delete the rule "${deleting.name}"? It will no longer raise alerts.`}
          pending={remove.isPending}
          onConfirm={() => confirmDelete(deleting)}
          testId="delete-rule-dialog"
        />
      )}
    </Card>
  );
}
