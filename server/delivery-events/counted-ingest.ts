import type { EventSource } from '@contracts/delivery-events';
import type { AppContext } from '../platform/context';
import type { currentUser } from '../platform/http/session';
import { eventPush, requireEmailAllowance } from '../plans/plan-gate.service';
import type { RowOutcome } from './delivery-event';
import { eventRowCount, ingestEvents } from './delivery-events.service';

/**
 * Every write of sent mail is counted against the plan's e-mails a month first (ADR 032), once its
 * rows are read: a request with no delivery event in it (the guides' check commands) stores
 * nothing and is never refused (ADR 043).
 */
export function countedIngest(ctx: AppContext) {
  return async (user: number | ReturnType<typeof currentUser>, source: EventSource, rows: RowOutcome[]) => {
    const userId = typeof user === 'number' ? user : user.id;
    const events = eventRowCount(rows);
    if (events > 0) await requireEmailAllowance(ctx.db, user, eventPush(source, events), ctx.env.APP_URL);
    return ingestEvents(ctx, userId, source, rows);
  };
}
