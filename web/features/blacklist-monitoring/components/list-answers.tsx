import { ExternalLink } from 'lucide-react';
import type { BlocklistAnswerStatus, ReputationDetail } from '@contracts/reputation';
import { Pill, type Tone } from '../../../components/ui/pill';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useIgnoreBlocklist } from '../api';

const ANSWER: Record<BlocklistAnswerStatus, { label: string; tone: Tone; order: number }> = {
  listed: { label: 'Listed', tone: 'bad', order: 0 },
  unknown: { label: 'Unknown', tone: 'none', order: 1 },
  clear: { label: 'Clear', tone: 'good', order: 2 },
};

/** Listings first, then the lists that could not say, then the clear ones; by name within each. */
function byInterest(a: ReputationDetail, b: ReputationDetail): number {
  return ANSWER[a.status].order - ANSWER[b.status].order || a.provider.localeCompare(b.provider);
}

/** Ignoring a list is the user's choice for all their IPs and domains (the server keeps one switch per list). */
function IgnoreSwitch({ detail }: { detail: ReputationDetail }) {
  const ignore = useIgnoreBlocklist();
  const pending = ignore.isPending;
  // Shown at once; the counts follow when the lists are asked for again.
  const checked = pending && ignore.variables ? ignore.variables.ignored : detail.ignored;
  return (
    <div className="flex items-center gap-2 text-sm">
      <Switch
        checked={checked}
        disabled={pending}
        aria-label={`Ignore ${detail.provider}`}
        onCheckedChange={(ignored) =>
          ignore.mutate(
            { listId: detail.listId, ignored },
            {
              onSuccess: (list) =>
                toast({
                  title: list.ignored ? 'List ignored' : 'List counted again',
                  description: list.ignored
                    ? `${list.name} no longer counts for any of your IPs or domains.`
                    : `${list.name} counts again.`,
                }),
              onError: (failure) =>
                toast({
                  title: 'Error',
                  description: serverMessageOr(failure, 'Failed to update the list'),
                  variant: 'destructive',
                }),
            },
          )
        }
      />
      <span aria-hidden="true">Ignore</span>
    </div>
  );
}

/** Every list's answer for one IP or domain (the detail of part 2, section 2) with its removal link and ignore switch. */
export function ListAnswers({ details, target }: { details: ReputationDetail[]; target: string }) {
  if (!details.length)
    return <p className="text-sm text-muted-foreground">No list has been asked yet: the first check is on its way.</p>;
  return (
    <ul data-testid="list-answers" aria-label={`Blocklist answers for ${target}`} className="divide-y text-sm">
      {[...details].sort(byInterest).map((detail) => (
        <li
          key={detail.listId}
          data-testid="list-answer"
          data-list={detail.listId}
          data-status={detail.status}
          className="grid gap-2 py-3 md:grid-cols-[minmax(0,1.4fr)_auto_minmax(0,2fr)_auto] md:items-start"
        >
          <div className="min-w-0">
            <p className="font-medium">{detail.provider}</p>
            <p className="text-xs text-muted-foreground wrap-anywhere">{detail.zone}</p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Pill tone={detail.ignored ? 'none' : ANSWER[detail.status].tone} testId="answer-status">
              {ANSWER[detail.status].label}
            </Pill>
            {detail.ignored && <span className="text-xs text-muted-foreground">ignored</span>}
          </div>
          <div className="min-w-0 space-y-1">
            {detail.reason && <p className="wrap-anywhere">{detail.reason}</p>}
            {detail.txt && <p className="text-muted-foreground wrap-anywhere">TXT: {detail.txt}</p>}
            {detail.status === 'listed' && (
              <a
                href={detail.removalUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
              >
                Request removal<span className="sr-only"> from {detail.provider}</span>
                <ExternalLink className="size-3" aria-hidden="true" />
              </a>
            )}
            <p className="text-xs text-muted-foreground">Checked {formatDateTime(detail.checkedAt)}</p>
          </div>
          <IgnoreSwitch detail={detail} />
        </li>
      ))}
    </ul>
  );
}
