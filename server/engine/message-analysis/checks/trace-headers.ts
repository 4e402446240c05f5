import { isIPv6 } from 'node:net';

/** What the SMTP session showed, as platform/message-analyser.ts's MessageEnvelope. */
interface Session {
  remoteIp: string;
  helo: string;
  mailFrom: string;
}

/**
 * The message as a receiving MTA hands it on: with the Return-Path and Received fields it prepends
 * (RFC 5321 4.4), in Postfix's layout, which SpamAssassin's Received parser reads. Without them
 * SpamAssassin finds no relay (NO_RELAYS) and its rules on the sending IP, its reverse DNS, the HELO
 * and SPF cannot fire. `confirmedName` is the forward-confirmed reverse DNS name of the IP; like
 * Postfix we write "unknown" without one, which is what RDNS_NONE looks for.
 */
export function withTraceHeaders(
  raw: Buffer,
  session: Session,
  receivedBy: string,
  confirmedName: string | null,
  now = new Date(),
): Buffer {
  const ip = isIPv6(session.remoteIp) ? `IPv6:${session.remoteIp}` : session.remoteIp;
  const trace = [
    `Return-Path: <${fieldText(session.mailFrom)}>`,
    `Received: from ${fieldText(session.helo) || 'unknown'} (${confirmedName ?? 'unknown'} [${ip}])`,
    `\tby ${receivedBy} (InboxPulse) with ESMTP;`,
    `\t${rfc5322Date(now)}`,
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(trace, 'latin1'), raw]);
}

/** A client's HELO and MAIL FROM are its own words: only printable ASCII reaches our header (no line breaks, controls or SMTPUTF8 bytes), and no longer than SMTP allows. */
function fieldText(value: string): string {
  return value.replace(/[^\x21-\x7e]/g, '').slice(0, 320);
}

/** "Mon, 23 Nov 2026 17:44:44 +0000" (RFC 5322 3.3; toUTCString's "GMT" zone is the obsolete form). */
function rfc5322Date(d: Date): string {
  return d.toUTCString().replace(/GMT$/, '+0000');
}
