import { authenticate } from 'mailauth';
import type { DnsResolver } from '../../dns/resolver';
import { mailauthResolver } from './mailauth-resolver';

/** What the receiving side of the SMTP session saw: authentication is judged from it, not from headers. */
export interface SmtpEnvelope {
  /** The connecting IP. */
  ip: string;
  /** The EHLO/HELO name. */
  helo: string;
  /** MAIL FROM ('' for a bounce). */
  mailFrom: string;
}

export interface AuthenticationResults {
  spf: { result: string; domain: string | null; record: string | null; comment: string | null };
  dkim: {
    domain: string;
    selector: string | null;
    result: string;
    aligned: boolean;
    algorithm: string | null;
    keyBits: number | null;
    comment: string | null;
  }[];
  dmarc: { result: string; domain: string | null; policy: string | null; record: string | null; spfAligned: boolean; dkimAligned: boolean } | null;
  arc: { result: string; instance: number | null } | null;
  bimi: { result: string; logo: string | null; comment: string | null } | null;
  /** The Authentication-Results header a receiver (we) would add. */
  authenticationResults: string;
  /** The From address(es) the message shows its reader, from every From field. */
  headerFrom: string[];
  /** How many From header fields the message has: RFC 5322 3.6 allows exactly one, whatever their addresses. */
  fromHeaderFields: number;
}

/**
 * SPF, DKIM (every signature), DMARC with alignment, ARC and BIMI for one received message, with
 * mailauth, over the product resolver. `mta` names the receiving host in Authentication-Results.
 * Without an envelope (a message fetched from a mailbox) SPF has nothing to judge and is none; DKIM
 * and DMARC by DKIM still hold.
 */
export async function analyzeAuthentication(raw: Buffer, envelope: SmtpEnvelope | null, dns: DnsResolver, mta: string): Promise<AuthenticationResults> {
  const result = await authenticate(raw, {
    ip: envelope?.ip,
    helo: envelope?.helo,
    sender: envelope?.mailFrom,
    mta,
    resolver: mailauthResolver(dns),
  });
  const spf = result.spf || null;
  const dmarc = result.dmarc || null;
  const dkim = result.dkim.results.map((r) => ({ r, ...dkimVerdict(r) }));
  return {
    spf: {
      result: spf?.status.result ?? 'none',
      domain: spf?.domain ?? null,
      record: spf?.rr ?? null,
      comment: spf?.status.comment ?? null,
    },
    // An unsigned message comes back as a pseudo-signature without a domain: no signatures is an empty list.
    dkim: dkim
      .filter(({ r }) => typeof r.signingDomain === 'string' && r.signingDomain !== '')
      .map(({ r, result, comment }) => {
        // mailauth 4.13 reports these as `algo` and `modulusLength`, not as its typings say.
        const extra = r as { algo?: string; modulusLength?: number };
        return {
          domain: r.signingDomain,
          selector: r.selector ?? null,
          result,
          aligned: Boolean(r.status.aligned),
          algorithm: extra.algo ?? null,
          keyBits: extra.modulusLength ?? null,
          comment,
        };
      }),
    dmarc: dmarc && {
      result: dmarc.status.result,
      domain: dmarc.domain ?? null,
      policy: dmarc.policy ?? dmarc.p ?? null,
      record: dmarc.rr ?? null,
      spfAligned: Boolean(dmarc.alignment?.spf?.result),
      dkimAligned: Boolean(dmarc.alignment?.dkim?.result),
    },
    arc: result.arc ? { result: result.arc.status.result, instance: result.arc.i === false ? null : result.arc.i } : null,
    bimi: result.bimi ? { result: result.bimi.status.result, logo: result.bimi.location ?? null, comment: result.bimi.status.comment ?? null } : null,
    authenticationResults: withDkimVerdicts(result.headers.split(/\r?\n(?=\S)/).find((h) => h.startsWith('Authentication-Results:')) ?? '', dkim),
    headerFrom: result.dkim.headerFrom ?? [],
    fromHeaderFields: countFromFields(raw),
  };
}

type MailauthSignature = Awaited<ReturnType<typeof authenticate>>['dkim']['results'][number];

/**
 * A signature's result as RFC 8601 2.7.1 defines it. mailauth says neutral for a body hash that does
 * not match and for a revoked key (an empty p=, RFC 6376 3.6.1), yet both are a signature that
 * was processed and failed verification: fail, as receivers report them.
 */
function dkimVerdict(r: MailauthSignature): { result: string; comment: string | null } {
  const comment = r.status.comment || null;
  if (r.status.result === 'neutral' && comment === 'body hash did not verify') return { result: 'fail', comment };
  // mailauth keeps the key record it fetched as `rr` (whitespace removed), not in its typings.
  const record = (r as { rr?: string }).rr;
  if (r.status.result !== 'pass' && record?.split(';').some((tag) => /^\s*p\s*=\s*$/i.test(tag))) return { result: 'fail', comment: 'key revoked (empty p=)' };
  return { result: r.status.result, comment };
}

/**
 * The Authentication-Results header mailauth wrote, with each DKIM row saying the result we report.
 * Its rows are the signatures in order, each starting "dkim=<result> (<comment>)"; a cursor walks
 * them so two rows that read alike are each matched to their own signature.
 */
function withDkimVerdicts(header: string, signatures: { r: MailauthSignature; result: string; comment: string | null }[]): string {
  let cursor = 0;
  for (const { r, result, comment } of signatures) {
    const before = `dkim=${r.status.result}${r.status.comment ? ` (${r.status.comment})` : ''}`;
    const at = header.indexOf(before, cursor);
    if (at < 0) continue; // a comment mailauth escaped: leave that row as it is
    const after = `dkim=${result}${comment ? ` (${comment})` : ''}`;
    header = header.slice(0, at) + after + header.slice(at + before.length);
    cursor = at + after.length;
  }
  return header;
}

/**
 * From fields in the message's own header (up to the first empty line; an attached message's
 * header does not count). A field starts a line with its name; a folded continuation starts with
 * white space, so counting line starts counts unfolded fields. mailauth merges the addresses of all
 * From fields into one list, so two fields look like one field with two addresses there.
 */
function countFromFields(raw: Buffer): number {
  const text = raw.toString('latin1');
  const headerEnd = /(?:^|\n)\r?\n/.exec(text)?.index ?? text.length;
  return text
    .slice(0, headerEnd)
    .split(/\r?\n/)
    .filter((line) => /^from[ \t]*:/i.test(line)).length;
}
