import type { AlertSeverity } from '@contracts/alerts';
import { GMAIL_SPAM_CRITICAL, GMAIL_SPAM_WARNING } from './thresholds';
import { round, type EvaluationData, type Measured } from './shared';

/* Gmail's spam rate of each domain (Google Postmaster Tools), judged by Google's own limits. */

export function gmailSpamConditions({ gmailSpam }: EvaluationData): Measured[] {
  return gmailSpam.map((day) => {
    const value = round(day.spamRatio * 100, 2);
    const severity: AlertSeverity | null =
      value >= GMAIL_SPAM_CRITICAL ? 'critical' : value >= GMAIL_SPAM_WARNING ? 'warning' : null;
    return {
      key: `gmail-spam:${day.domain}`,
      recovered: `Gmail's spam rate for ${day.domain} was ${value}% on ${day.date} (Google asks for under ${GMAIL_SPAM_WARNING}%).`,
      alert: severity && {
        type: 'spam',
        severity,
        title: `Gmail spam rate of ${day.domain} is ${value}%`,
        message:
          `Gmail users reported ${value}% of ${day.domain}'s mail as spam on ${day.date} (Google Postmaster Tools). ` +
          `Google asks bulk senders to stay under ${GMAIL_SPAM_WARNING}% and never reach ${GMAIL_SPAM_CRITICAL}%, where Gmail starts refusing or filtering their mail. ` +
          'Send only to people who asked for it, make unsubscribing one click (List-Unsubscribe), and stop mailing addresses that have not opened in months.',
        domain: day.domain,
        measure: `Gmail spam rate of ${day.domain}`,
        unit: '%',
        metadata: {
          value,
          date: day.date,
          warning: GMAIL_SPAM_WARNING,
          critical: GMAIL_SPAM_CRITICAL,
          source: 'Google Postmaster Tools',
        },
      },
    };
  });
}
