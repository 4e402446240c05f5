import type { Alert } from '@contracts/alerts';
import { relativeAge } from '../../../lib/format';

/** Where and how old: domain, age (part 2, section 9: days, then hours, otherwise 'Just now'), resolved and acknowledged. */
export function AlertStatusLine({ alert }: { alert: Alert }) {
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      {alert.domain && (
        <span className="wrap-anywhere" data-testid="alert-domain">
          {alert.domain}
        </span>
      )}
      <time dateTime={alert.createdAt} data-testid="alert-age">
        {relativeAge(alert.createdAt)}
      </time>
      {alert.resolvedAt ? (
        <span data-testid="alert-resolved" className="font-medium text-green-700">
          Resolved {relativeAge(alert.resolvedAt)}
        </span>
      ) : (
        <span data-testid="alert-open">Ongoing</span>
      )}
      {alert.acknowledgedAt && (
        <span data-testid="alert-acknowledged">Acknowledged {relativeAge(alert.acknowledgedAt)}</span>
      )}
    </p>
  );
}
