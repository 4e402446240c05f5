import { verifiedOwnersOf } from '../domains/domains.service';
import { ingestEvents, type IngestContext } from '../delivery-events/delivery-events.service';
import type { FeedbackLoopReport } from '../engine/feedback-reports/arf-report';
import { reportSender } from './report-authenticity';

/*
 * A feedback loop's complaint, as a complaint delivery event of the users who verified the complained-about
 * domain: the original's From domain or a DKIM d= of it, the report's Reported-Domain only when neither is
 * anyone's. Stored once per (original Message-ID, recipient), as every delivery event is: a second copy of
 * the report, or the same complaint from an ESP's webhook, changes nothing.
 */

export interface ComplaintOutcome {
  /** processed: counted for at least one user. unrouted: nobody verified its domain. failed: not counted. */
  status: 'processed' | 'unrouted' | 'failed';
  /** What happened, in words, for the operator (kept on the inbound message). */
  result: string;
  /** The domains the complaint is about. */
  reportDomains: string[];
}

const failed = (result: string, reportDomains: string[] = []): ComplaintOutcome => ({
  status: 'failed',
  result,
  reportDomains,
});

/** What each Feedback-Type other than abuse is (RFC 5965 section 7.3, RFC 6591), and why it is not a complaint. */
const NOT_COMPLAINTS: Record<string, string> = {
  'not-spam': 'a report that the message is not spam',
  'auth-failure': 'an authentication failure report (RFC 6591), which goes to the DMARC report address',
  fraud: 'a fraud report',
  virus: 'a virus report',
  other: 'a report of another kind',
};

/**
 * Counts the report's complaint for the owners of its domain, when the report's mail proved it came from a
 * feedback loop (`proven`: the Organizational Domains its DKIM signatures or DMARC pass proved).
 */
export async function recordComplaint(
  ctx: IngestContext,
  report: FeedbackLoopReport,
  proven: string[],
): Promise<ComplaintOutcome> {
  const type = report.feedbackType;
  if (type !== null && type !== 'abuse')
    return failed(
      `The report is ${NOT_COMPLAINTS[type] ?? `of type "${type}"`} (Feedback-Type: ${type}), not a complaint: not counted.`,
    );

  const { domains, owners } = await owningUsers(ctx, report);
  if (domains.length === 0)
    return failed(
      [...report.notes, 'It names no domain (From, DKIM d= or Reported-Domain) to attribute the complaint to.'].join(
        ' ',
      ),
    );
  if (owners.size === 0)
    return { status: 'unrouted', result: `No user has verified ${domains.join(', ')}.`, reportDomains: domains };

  const sender = reportSender(report.reportFrom, proven);
  if (!sender.authenticated)
    return failed(`Not counted: the report's sender is not authenticated. ${sender.reason}`, domains);

  const named = report.original?.recipient;
  const recipients = report.originalRcptTo.length > 0 ? report.originalRcptTo : named ? [named] : [];
  if (recipients.length === 0)
    return failed(
      [
        ...report.notes,
        'It names no recipient (Original-Rcpt-To, or the original message’s To), so the complaint cannot be counted once: not counted.',
      ].join(' '),
      domains,
    );

  const messageId = report.original?.messageId ?? report.originalMessageId ?? `arf-sha256:${report.digest}`;
  const occurredAt = report.arrivalDate ?? report.original?.date ?? new Date();
  const lines = [...report.notes, `Report authenticated: signed by ${sender.by}.`];
  if (!report.original?.messageId && !report.originalMessageId)
    lines.push('The original message has no Message-ID: the report itself identifies the complaint.');
  if (!report.arrivalDate)
    lines.push(`It has no Arrival-Date: dated by ${report.original?.date ? "the original's Date" : 'its receipt'}.`);
  for (const [userId, domain] of owners) {
    const answer = await ingestEvents(
      ctx,
      userId,
      'fbl',
      recipients.map((recipient) => ({
        event: {
          messageId,
          recipient,
          eventType: 'complaint',
          bounceClass: null,
          enhancedStatus: null,
          smtpResponse: null,
          domain,
          recipientDomain: recipient.split('@')[1],
          sendingIp: report.sourceIp ?? '',
          occurredAt,
        },
      })),
    );
    lines.push(
      `Complaint about ${domain} for user ${userId}: ${answer.accepted > 0 ? 'counted' : 'counted before (a copy)'}.`,
    );
  }
  return { status: 'processed', result: lines.join('\n'), reportDomains: domains };
}

/**
 * The users a complaint belongs to, each with the domain it names that they verified: by the original's From
 * and DKIM d= domains; by Reported-Domain when nobody verified those (it names the sender in most loops, but
 * AOL's names the sending host).
 */
async function owningUsers(ctx: IngestContext, report: FeedbackLoopReport) {
  const original = report.original;
  const own = [...new Set([original?.fromDomain, ...(original?.dkimDomains ?? [])].filter((d) => d != null))];
  const owners = new Map<number, string>();
  for (const candidates of [own, report.reportedDomains]) {
    for (const domain of candidates)
      for (const userId of await verifiedOwnersOf(ctx.db, domain)) if (!owners.has(userId)) owners.set(userId, domain);
    if (owners.size > 0) return { domains: candidates, owners };
  }
  return { domains: own.length > 0 ? own : report.reportedDomains, owners };
}
