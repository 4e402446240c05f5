import { unauthenticatedReason } from '../dmarc/dmarc.service';

/*
 * Anyone can mail fbl@: a complaint counts against a sender's complaint rate only when the report's mail proved
 * where it came from (a DKIM signature that verified, or DMARC passing; dmarc's provenSenderDomains), either as one
 * of the organisations that run feedback loops, or at least as the organisation of the report's own From address.
 */

/** The Organizational Domains feedback loops sign their reports with, and whose loop it is. */
export const KNOWN_FEEDBACK_LOOPS: Readonly<Record<string, string>> = {
  'yahoo.com': 'Yahoo Complaint Feedback Loop',
  'aol.com': 'Yahoo Complaint Feedback Loop (AOL)',
  'aol.net': 'AOL feedback loop',
  'hotmail.com': 'Microsoft JMRP',
  'outlook.com': 'Microsoft JMRP',
  'microsoft.com': 'Microsoft JMRP',
  'comcast.net': 'Comcast feedback loop',
  // Validity (formerly Return Path) runs the loops of Comcast, Fastmail and many smaller providers.
  'senderscore.net': 'Validity feedback loop',
  'returnpath.net': 'Validity feedback loop',
  'fastmail.fm': 'Fastmail feedback loop',
  'fastmail.com': 'Fastmail feedback loop',
  'messagingengine.com': 'Fastmail feedback loop',
  'mail.ru': 'Mail.ru feedback loop',
  'yandex.ru': 'Yandex feedback loop',
  'yandex.net': 'Yandex feedback loop',
  'zoho.com': 'Zoho feedback loop',
};

export type ReportSender = { authenticated: true; by: string } | { authenticated: false; reason: string };

/** Whether the report mail proved it came from a feedback loop, from the Organizational Domains it proved. */
export function reportSender(reportFrom: string | null, proven: string[]): ReportSender {
  const loop = proven.find((org) => KNOWN_FEEDBACK_LOOPS[org]);
  if (loop) return { authenticated: true, by: `${loop} (${KNOWN_FEEDBACK_LOOPS[loop]})` };
  const reason = unauthenticatedReason({ email: reportFrom, orgName: '' }, proven);
  if (reason === null) return { authenticated: true, by: reportFrom!.split('@')[1] };
  return { authenticated: false, reason };
}
