import { MessageSquareWarning } from 'lucide-react';
import { CopyButton } from '../../../components/copy-button';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount, formatDateTime, relativeAge } from '../../../lib/format';
import { useFeedbackLoops } from '../api';

/**
 * Complaint feedback loops (issue 37, ADR 054): the address to register with the mailbox providers' loops, whose
 * complaint reports (ARF) count in the complaint rate, and what they have brought.
 */
export function FeedbackLoopsCard() {
  const loops = useFeedbackLoops();
  return (
    <Card data-testid="feedback-loops">
      <CardHeader className="pb-3">
        <CardTitle as="h3" className="flex items-center gap-2 text-lg">
          <MessageSquareWarning className="size-5" aria-hidden="true" />
          Complaint feedback loops
        </CardTitle>
        <CardDescription>
          Register this address with the mailbox providers’ feedback loops (Microsoft JMRP, Yahoo Complaint Feedback
          Loop, Comcast, Fastmail and others through Validity): each complaint they report about your verified domains
          counts once in your complaint rate.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={loops}
          loading={<Skeleton className="h-10 w-full" />}
          errorMessage={(error) => serverMessageOr(error, 'Unable to load your feedback loops.')}
        >
          {(status) => (
            <div className="space-y-2 text-sm">
              <div className="flex min-w-0 items-start gap-1">
                <code className="min-w-0 flex-1 rounded bg-muted px-2 py-1.5 font-mono text-xs break-all">
                  {status.address}
                </code>
                <CopyButton value={status.address} label="Copy the feedback loop address" />
              </div>
              <p data-testid="feedback-loops-received">
                {status.lastComplaintAt ? (
                  <>
                    {formatCount(status.complaints30d)} complaints in the last 30 days; the latest{' '}
                    <span title={formatDateTime(status.lastComplaintAt)}>
                      {relativeAge(status.lastComplaintAt).toLowerCase()}
                    </span>
                    .
                  </>
                ) : (
                  <span className="text-muted-foreground">No complaint received yet.</span>
                )}
              </p>
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
