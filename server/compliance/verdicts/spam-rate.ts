import type { ComplianceEvidence } from '@contracts/compliance';
import { EVIDENCE_DAYS, type ComplianceEvidenceData } from '../../insights/compliance-evidence';
import { met, notMet, unknown, type Judge } from './judgement';

/*
 * The spam rate (ADR 055). Gmail's rule is about the rate Postmaster Tools reports (user spam reports over mail
 * delivered to active Gmail inboxes); Yahoo's about complaints, which reach InboxPulse as complaint events
 * (Yahoo's feedback loop, ESP webhooks) and are counted here over the delivered events to Yahoo. Each evidence
 * line names its denominator.
 */

/** The rules' limit, and Gmail's guidance below it. */
export const SPAM_RATE_LIMIT = 0.003;
export const SPAM_RATE_GUIDANCE = 0.001;
/** Gmail judges the spam rate over recent days; a day at the limit in the last week is not met. */
const POSTMASTER_DAYS = 7;

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)} %`;
const FIX =
  'Mail only people who asked for it, honour unsubscribes at once, and stop mailing addresses that never engage.';

function complaintEvidence(data: ComplianceEvidenceData, mailboxProvider: string, label: string) {
  const counts = data.events.find((e) => e.mailboxProvider === mailboxProvider);
  if (!counts || counts.delivered === 0) return null;
  const ratio = counts.complaints / counts.delivered;
  const evidence: ComplianceEvidence = {
    source: 'complaints',
    text: `Complaints: ${counts.complaints} complaint events over ${counts.delivered} delivered events to ${label} in the last ${EVIDENCE_DAYS} days (${percent(ratio)}).`,
    at: counts.lastComplaintAt,
  };
  return { ratio, evidence };
}

const judgeGmailSpamRate: Judge = (data) => {
  const days = (data.postmaster ?? []).filter((d) => d.spamRatio !== null).slice(0, POSTMASTER_DAYS);
  const complaints = complaintEvidence(data, 'gmail', 'Gmail');
  const extra = complaints ? [complaints.evidence] : [];
  if (days.length === 0)
    return unknown(
      [
        {
          source: 'postmaster',
          text:
            data.postmaster === null
              ? 'Google Postmaster Tools is not connected for this domain.'
              : 'Postmaster Tools gave no spam rate for the last 7 days (too little traffic to Gmail).',
          at: null,
        },
        ...extra,
      ],
      'Connect Google Postmaster Tools and verify the domain there: Gmail’s rule is about the rate it reports.',
    );
  const [latest] = days;
  const worst = days.reduce((a, b) => (b.spamRatio! > a.spamRatio! ? b : a));
  const guidance =
    latest.spamRatio! >= SPAM_RATE_GUIDANCE ? ', above the 0.10 % Google asks senders to stay under' : '';
  const evidence: ComplianceEvidence[] = [
    {
      source: 'postmaster',
      text: `Postmaster Tools: user-reported spam rate ${percent(latest.spamRatio!)} on ${latest.date} (spam reports over mail delivered to Gmail inboxes)${guidance}; highest of the last ${days.length} days ${percent(worst.spamRatio!)} on ${worst.date}.`,
      at: `${latest.date}T00:00:00.000Z`,
    },
    ...extra,
  ];
  return worst.spamRatio! >= SPAM_RATE_LIMIT ? notMet(evidence, FIX) : met(evidence);
};

const judgeYahooSpamRate: Judge = (data) => {
  const complaints = complaintEvidence(data, 'yahoo', 'Yahoo');
  if (!complaints)
    return unknown(
      [{ source: 'complaints', text: `No delivered events to Yahoo in the last ${EVIDENCE_DAYS} days.`, at: null }],
      'Send your MTA or ESP events to InboxPulse and sign up for Yahoo’s complaint feedback loop.',
    );
  return complaints.ratio >= SPAM_RATE_LIMIT ? notMet([complaints.evidence], FIX) : met([complaints.evidence]);
};

export const judgeSpamRate: Judge = (data, provider) =>
  provider === 'yahoo' ? judgeYahooSpamRate(data, provider) : judgeGmailSpamRate(data, provider);
