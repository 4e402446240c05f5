import type { DMARCResult } from 'mailauth';
import { asciiDomain, evaluateDmarc, type DmarcEvaluation } from '../../dmarc-policy/dmarc-evaluation';
import type { DnsResolver } from '../../../platform/dns/resolver';
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
    /** The header fields the signature covers (its h= tag), lower case: what a verified signature vouches for. */
    signedHeaders?: string[];
  }[];
  dmarc: {
    result: string;
    /** The Author Domain (the From domain). */
    domain: string | null;
    /** The policy applied to failing mail (RFC 9989 9.1 policy.dmarc): t=y and broken policy tags taken into account. */
    policy: string | null;
    record: string | null;
    spfAligned: boolean;
    dkimAligned: boolean;
    /** Where the record was found (RFC 9989 4.10.1) and how: the From domain's own, its Organizational Domain's, or a PSD's. */
    policyDomain?: string | null;
    policySource?: 'author-domain' | 'organizational-domain' | 'public-suffix-domain' | null;
    organizationalDomain?: string | null;
    adkim?: 'r' | 's';
    aspf?: 'r' | 's';
    testing?: boolean;
  } | null;
  arc: { result: string; instance: number | null } | null;
  bimi: { result: string; logo: string | null; comment: string | null } | null;
  /** The Authentication-Results header a receiver (we) would add. */
  authenticationResults: string;
  /** The From address(es) the message shows its reader, from every From field. */
  headerFrom: string[];
  /** How many From header fields the message has: RFC 5322 3.6 allows exactly one, whatever their addresses. */
  fromHeaderFields: number;
  /** How often each field RFC 5322 3.6 allows at most once appears in the message's own header (absent fields left out). */
  headerFieldCounts?: Record<string, number>;
}

/**
 * SPF, DKIM (every signature), DMARC with alignment, ARC and BIMI for one received message, over
 * the product resolver. mailauth checks SPF, DKIM and ARC; DMARC is ours (RFC 9989: policy
 * discovery by DNS tree walk, strict alignment as exact names: mailauth 4 finds policies with the
 * Public Suffix List and falls back to relaxed alignment under adkim=s/aspf=s), and mailauth's BIMI
 * lookup is given our DMARC verdict. `mta` names the receiving host in Authentication-Results.
 * Without an envelope (a message fetched from a mailbox) SPF has nothing to judge and is none; DKIM
 * and DMARC by DKIM still hold.
 */
export async function analyzeAuthentication(
  raw: Buffer,
  envelope: SmtpEnvelope | null,
  dns: DnsResolver,
  mta: string,
): Promise<AuthenticationResults> {
  // Loaded on first use, as every start-up dependency only some jobs need (ADR 060): it adds to each start's time to first answer.
  const { authenticate, bimi } = await import('mailauth');
  const resolver = mailauthResolver(dns);
  const result = await authenticate(raw, {
    ip: envelope?.ip,
    helo: envelope?.helo,
    sender: envelope?.mailFrom,
    mta,
    resolver,
    disableDmarc: true,
    disableBimi: true,
  });
  const spf = result.spf || null;
  const headerFrom = result.dkim.headerFrom ?? [];
  // An unsigned message comes back as a pseudo-signature without a domain: no signatures is an empty list.
  const signatures = result.dkim.results
    .filter((r) => typeof r.signingDomain === 'string' && r.signingDomain !== '')
    .map((r) => ({ r, ...dkimVerdict(r) }));
  const verified = signatures.filter(({ r }) => r.status.result === 'pass');
  const authorDomain = headerFrom.length === 1 ? domainOf(headerFrom[0]) : null;
  const dmarc = authorDomain
    ? await evaluateDmarc(dns, {
        authorDomain,
        spfDomain: spf && spf.status.result === 'pass' ? spf.domain : null,
        dkimDomains: verified.map(({ r }) => r.signingDomain),
      })
    : null;
  const aligned = new Set(dmarc?.dkim.filter((d) => d.aligned).map((d) => d.domain));
  const bimiResult = await bimi({
    dmarc: dmarc ? bimiInput(dmarc, verified) : undefined,
    headers: result.dkim.headers,
    resolver,
  });
  const rows = [dmarc && dmarcRow(dmarc), bimiResult && bimiResult.info].filter(Boolean);
  const header = withDkimVerdicts(
    result.headers.split(/\r?\n(?=\S)/).find((h) => h.startsWith('Authentication-Results:')) ?? '',
    signatures,
  ).trimEnd();
  return {
    spf: {
      result: spf?.status.result ?? 'none',
      domain: spf?.domain ?? null,
      record: spf?.rr ?? null,
      comment: spf?.status.comment ?? null,
    },
    dkim: signatures.map(({ r, result, comment }) => {
      // mailauth 4.13 reports these as `algo`, `modulusLength` and `signingHeaders`, not as its typings say.
      const extra = r as { algo?: string; modulusLength?: number; signingHeaders?: { keys?: string } };
      return {
        domain: r.signingDomain,
        selector: r.selector ?? null,
        result,
        // A signature that did not verify authenticates nothing, so it aligns with nothing (RFC 9989 4.4.1).
        aligned: r.status.result === 'pass' && aligned.has(asciiDomain(r.signingDomain)),
        algorithm: extra.algo ?? null,
        keyBits: extra.modulusLength ?? null,
        comment,
        signedHeaders: extra.signingHeaders?.keys?.split(':').map((name) => name.trim().toLowerCase()) ?? [],
      };
    }),
    dmarc: dmarc && {
      result: dmarc.result,
      domain: dmarc.authorDomain,
      policy: dmarc.discovery.policy?.policy ?? null,
      record: dmarc.discovery.found?.txt ?? null,
      spfAligned: dmarc.spf?.aligned === true,
      dkimAligned: aligned.size > 0,
      policyDomain: dmarc.discovery.found?.domain ?? null,
      policySource: dmarc.discovery.found?.source ?? null,
      organizationalDomain: dmarc.discovery.organizationalDomain,
      adkim: dmarc.adkim,
      aspf: dmarc.aspf,
      testing: dmarc.discovery.policy?.testing ?? false,
    },
    arc: result.arc
      ? { result: result.arc.status.result, instance: result.arc.i === false ? null : result.arc.i }
      : null,
    bimi: bimiResult
      ? {
          result: bimiResult.status.result,
          logo: bimiResult.location ?? null,
          comment: bimiResult.status.comment ?? null,
        }
      : null,
    authenticationResults: [header, ...rows].join(';\r\n '),
    headerFrom,
    fromHeaderFields: countFromFields(raw),
    headerFieldCounts: countSingleInstanceFields(raw),
  };
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/**
 * The dmarc row of Authentication-Results (RFC 8601 2.7.x, RFC 9989 9.1 and 9.2): the result, the
 * record's policies as a comment, header.from (the Author Domain) and policy.dmarc (the policy
 * applied after t=y and broken policy tags are taken into account).
 */
function dmarcRow(dmarc: DmarcEvaluation): string {
  const { found, policy } = dmarc.discovery;
  const record = found?.record;
  const notes = record
    ? [
        ...(['p', 'sp', 'np'] as const)
          .filter((tag) => record[tag])
          .map((tag) => `${tag}=${record[tag]!.toUpperCase()}`),
        ...(dmarc.adkim === 's' ? ['adkim=s'] : []),
        ...(dmarc.aspf === 's' ? ['aspf=s'] : []),
        ...(record.t === 'y' ? ['t=y'] : []),
      ]
    : [];
  if (dmarc.failed) notes.push(`DNS lookup of ${dmarc.failed.name} failed`);
  const comment = notes.length > 0 ? ` (${notes.join(' ').replace(/[()\\]/g, '\\$&')})` : '';
  return `dmarc=${dmarc.result}${comment} header.from=${dmarc.authorDomain}${policy?.policy ? ` policy.dmarc=${policy.policy}` : ''}`;
}

/** Our DMARC verdict in the shape mailauth's BIMI lookup reads (its lib/bimi/index.js): it looks at the From domain, then the Organizational Domain. */
function bimiInput(dmarc: DmarcEvaluation, verified: { r: MailauthSignature }[]): DMARCResult {
  const { found, policy, organizationalDomain } = dmarc.discovery;
  const dkim = dmarc.dkim.find((d) => d.aligned);
  const signature = verified.find(({ r }) => asciiDomain(r.signingDomain) === dkim?.domain)?.r.status as
    { underSized?: boolean } | undefined;
  return {
    domain: organizationalDomain ?? dmarc.authorDomain,
    policy: policy?.policy ?? 'none',
    p: found?.record.p ?? 'none',
    sp: found?.record.sp ?? found?.record.p ?? 'none',
    pct: found?.record.pct ?? undefined,
    rr: found?.txt,
    status: { result: dmarc.result, header: { from: dmarc.authorDomain } },
    alignment: {
      spf: { result: dmarc.spf?.aligned ? dmarc.spf.domain : false, strict: dmarc.aspf === 's' },
      dkim: { result: dkim?.domain ?? false, strict: dmarc.adkim === 's', underSized: signature?.underSized },
    },
    info: dmarcRow(dmarc),
  };
}

type MailauthSignature = Awaited<ReturnType<typeof import('mailauth').authenticate>>['dkim']['results'][number];

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
  if (r.status.result !== 'pass' && record?.split(';').some((tag) => /^\s*p\s*=\s*$/i.test(tag)))
    return { result: 'fail', comment: 'key revoked (empty p=)' };
  return { result: r.status.result, comment };
}

/**
 * The Authentication-Results header mailauth wrote, with each DKIM row saying the result we report.
 * Its rows are the signatures in order, each starting "dkim=<result> (<comment>)"; a cursor walks
 * them so two rows that read alike are each matched to their own signature.
 */
function withDkimVerdicts(
  header: string,
  signatures: { r: MailauthSignature; result: string; comment: string | null }[],
): string {
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
  return headerLines(raw).filter((line) => /^from[ \t]*:/i.test(line)).length;
}

/** RFC 5322 3.6's table: the fields a message may carry at most once. */
const SINGLE_INSTANCE_FIELDS = [
  'date',
  'from',
  'sender',
  'reply-to',
  'to',
  'cc',
  'bcc',
  'message-id',
  'in-reply-to',
  'references',
  'subject',
];

/** How often each single-instance field starts a line of the message's own header, counted as countFromFields counts From. */
function countSingleInstanceFields(raw: Buffer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of headerLines(raw)) {
    const name = /^([^:\s]+)[ \t]*:/.exec(line)?.[1]?.toLowerCase();
    if (name && SINGLE_INSTANCE_FIELDS.includes(name)) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

function headerLines(raw: Buffer): string[] {
  const text = raw.toString('latin1');
  const headerEnd = /(?:^|\n)\r?\n/.exec(text)?.index ?? text.length;
  return text.slice(0, headerEnd).split(/\r?\n/);
}
