/* The numbers that decide an alert (docs/decisions/025). */

/** Inbox placement below this share is critical whatever the user's threshold. */
export const INBOX_CRITICAL = 50;
/** Delivery rate (delivered / sent): below 95% warning, below 85% critical. */
export const DELIVERY_WARNING = 95;
export const DELIVERY_CRITICAL = 85;
/** Volume against the previous window of the same length: +200% or more, or -50% or less. */
export const VOLUME_UP = 200;
export const VOLUME_DOWN = -50;
/** Sender score below this is critical whatever the user's threshold. */
export const SCORE_CRITICAL = 50;
/** Share of messages failing DMARC over the last 7 days: above 5% warning, above 20% critical. */
export const DMARC_FAIL_WARNING = 5;
export const DMARC_FAIL_CRITICAL = 20;
/** Rates are judged only on this many messages sent in the window (DMARC: counted in reports). */
export const MIN_MESSAGES = 100;
/** How far back an inbox test still counts, and DMARC reports. */
export const INBOX_TEST_DAYS = 30;
export const DMARC_DAYS = 7;
/**
 * Gmail's user-reported spam rate (Postmaster Tools): Google asks bulk senders to stay below 0.1 %
 * and never reach 0.3 % (its sender guidelines); at 0.3 % it stops mitigating delivery problems.
 */
export const GMAIL_SPAM_WARNING = 0.1;
export const GMAIL_SPAM_CRITICAL = 0.3;
/** A Postmaster Tools day older than this no longer counts (Google publishes a day late, sometimes two). */
export const GMAIL_SPAM_DAYS = 4;
