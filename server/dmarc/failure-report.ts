import { isIP } from 'node:net';

/*
 * The ARF part (RFC 5965, message/feedback-report) of a failure report: header-like fields that say
 * which domain it is about, where the message came from and what failed, with the fields RFC 9991
 * section 4 adds to RFC 6591 (Identity-Alignment, Auth-Failure: dmarc). Pure: no I/O. The rest of a
 * failure report (the failed message itself) is never read here, and nothing of it is kept.
 */

/** An ARF part is a few hundred bytes; a hostile one is read no further than this. */
export const MAX_ARF_BYTES = 16 * 1024;

export type AlignmentMethod = 'dkim' | 'spf';

/**
 * Identity-Alignment (RFC 9991 section 4 item 2): the mechanisms that failed to authenticate an
 * aligned identity (none: an empty list), or the field as written when it does not follow the ABNF.
 */
export type IdentityAlignment = { methods: AlignmentMethod[] } | { unreadable: string };

export interface FailureReport {
  /** Feedback-Type, lower-cased: auth-failure for failure reports (RFC 6591). */
  feedbackType: string | null;
  /** Every Auth-Failure, lower-cased: dmarc (RFC 9991), adsp, bodyhash, revoked, signature, spf (RFC 6591). */
  authFailures: string[];
  identityAlignment: IdentityAlignment | null;
  /** Every Reported-Domain that is a domain name, lower-cased, without a root dot. */
  reportedDomains: string[];
  sourceIp: string | null;
  dkimDomain: string | null;
  dkimSelector: string | null;
  /** The domain of Original-Mail-From: its local part names a person, so it is not kept (RFC 9991 section 7.1). */
  originalMailFromDomain: string | null;
  arrivalDate: Date | null;
}

const DOMAIN = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)+$/;
const SELECTOR = /^[a-z0-9_](?:[a-z0-9_.-]{0,61}[a-z0-9_])?$/i;

export function readFeedbackReport(part: Uint8Array): FailureReport {
  let text = Buffer.from(part.buffer, part.byteOffset, Math.min(part.byteLength, MAX_ARF_BYTES)).toString('utf8');
  // Cut short: the last line may be half a field, and half a domain name or address reads as another.
  if (part.byteLength > MAX_ARF_BYTES) text = text.slice(0, text.lastIndexOf('\n') + 1);
  const fields = readFields(text);
  const one = (name: string) => (fields.get(name)?.length === 1 ? uncomment(fields.get(name)![0]) : null);
  const domain = (value: string | null | undefined) => {
    const name = value?.toLowerCase().replace(/\.$/, '');
    return name && DOMAIN.test(name) ? name : null;
  };
  const sourceIp = one('source-ip');
  const selector = one('dkim-selector');
  const arrival = one('arrival-date');
  const arrivalTime = arrival ? Date.parse(arrival) : NaN;
  const reported = (fields.get('reported-domain') ?? []).map((value) => domain(uncomment(value)));
  return {
    feedbackType: one('feedback-type')?.toLowerCase() || null,
    authFailures: (fields.get('auth-failure') ?? []).flatMap((value) => uncomment(value)?.toLowerCase() || []),
    identityAlignment: fields.has('identity-alignment') ? identityAlignment(fields.get('identity-alignment')!) : null,
    reportedDomains: [...new Set(reported.filter((name): name is string => name !== null))],
    sourceIp: sourceIp && isIP(sourceIp) ? sourceIp : null,
    dkimDomain: domain(one('dkim-domain')),
    dkimSelector: selector && SELECTOR.test(selector) ? selector.toLowerCase() : null,
    originalMailFromDomain: domain(one('original-mail-from')?.replace(/^<|>$/g, '').split('@').pop()),
    arrivalDate: Number.isNaN(arrivalTime) ? null : new Date(arrivalTime),
  };
}

/** Field values by lower-cased name, unfolded (RFC 5322 section 2.2.3), in the order written. */
function readFields(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const line of text.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const field = /^([\x21-\x39\x3b-\x7e]+)[ \t]*:(.*)$/.exec(line);
    if (!field) continue;
    const name = field[1].toLowerCase();
    fields.set(name, [...(fields.get(name) ?? []), field[2].trim()]);
  }
  return fields;
}

/**
 * The value without its comments (RFC 5322 section 3.2.2: parenthesised, nested, with quoted-pairs),
 * each replaced by a space so it cannot join two words, and trimmed; null when a comment is not closed.
 */
function uncomment(value: string): string | null {
  let out = '';
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (depth > 0 && c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) {
      if (--depth === 0) out += ' ';
    } else if (depth === 0) out += c;
  }
  return depth === 0 ? out.trim() : null;
}

/**
 * id-align = "Identity-Alignment:" [CFWS] ( "none" / dmarc-method *( [CFWS] "," [CFWS] dmarc-method ) ) [CFWS],
 * dmarc-method = ( "dkim" / "spf" ), each at most once (RFC 9991 section 4 item 2; literals are
 * case-insensitive, RFC 5234 section 2.3). The field appears once: two are not guessed between.
 */
function identityAlignment(values: string[]): IdentityAlignment {
  const unreadable = { unreadable: values.join('; ') };
  const value = values.length === 1 ? uncomment(values[0])?.toLowerCase() : null;
  if (value == null) return unreadable;
  if (value === 'none') return { methods: [] };
  const methods = value.split(',').map((method) => method.trim());
  const known = methods.every((method): method is AlignmentMethod => method === 'dkim' || method === 'spf');
  return known && new Set(methods).size === methods.length ? { methods } : unreadable;
}

/** What each RFC 6591 failure type means (RFC 6591 section 3.1), in words. */
const AUTH_FAILURES: Record<string, string> = {
  adsp: "the author domain's ADSP policy was not met",
  bodyhash: "a DKIM signature's body hash did not match the body",
  revoked: "a DKIM signature's key has been revoked",
  signature: 'a DKIM signature did not verify',
  spf: 'SPF did not pass',
};

const METHOD_NAMES: Record<AlignmentMethod, string> = { dkim: 'DKIM', spf: 'SPF' };

/** What failed, in words, from Identity-Alignment and Auth-Failure. */
function whatFailed(report: FailureReport): string[] {
  const said: string[] = [];
  const alignment = report.identityAlignment;
  if (alignment && 'unreadable' in alignment) {
    said.push(
      `its Identity-Alignment field ("${alignment.unreadable}") is unreadable (RFC 9991 allows "none", or dkim and spf each at most once, separated by commas)`,
    );
  } else if (alignment) {
    const field = `(Identity-Alignment: ${alignment.methods.join(', ') || 'none'})`;
    const [first, second] = alignment.methods.map((method) => METHOD_NAMES[method]);
    if (!first) said.push(`it names no mechanism that failed to authenticate an aligned identity ${field}`);
    else if (!second) said.push(`${first} did not authenticate an aligned identity ${field}`);
    else said.push(`neither ${first} nor ${second} authenticated an aligned identity ${field}`);
  }
  for (const failure of report.authFailures) {
    if (failure === 'dmarc') {
      // Identity-Alignment, when there is one, already says which mechanism failed alignment.
      if (!alignment) said.push('SPF or DKIM did not produce an aligned identity (Auth-Failure: dmarc)');
    } else
      said.push(
        AUTH_FAILURES[failure] ? `${AUTH_FAILURES[failure]} (Auth-Failure: ${failure})` : `Auth-Failure: ${failure}`,
      );
  }
  if (report.dkimDomain)
    said.push(
      `the DKIM signature checked was d=${report.dkimDomain}${report.dkimSelector ? ` s=${report.dkimSelector}` : ''}`,
    );
  return said;
}

const minute = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Why the e-mail was not imported, saying what the report tells: for which domain, from where, what failed. */
export function describeFailureReport(report: FailureReport): string {
  if (report.feedbackType && report.feedbackType !== 'auth-failure') {
    return `The e-mail is a feedback report of type "${report.feedbackType}" (RFC 5965), not a DMARC report; feedback reports are not imported here.`;
  }
  const dmarc = report.authFailures.includes('dmarc') || report.identityAlignment !== null;
  const kind = dmarc ? 'a DMARC failure report (RFC 9991)' : 'an authentication failure report (RFC 6591)';
  const about = [
    report.reportedDomains.length ? ` for ${report.reportedDomains.join(', ')}` : '',
    report.sourceIp ? ` from ${report.sourceIp}` : '',
  ].join('');
  const context = [
    report.originalMailFromDomain && `envelope sender ${report.originalMailFromDomain}`,
    report.arrivalDate && `arrived ${minute(report.arrivalDate)}`,
  ].filter(Boolean);
  const what = whatFailed(report);
  return (
    `The e-mail is ${kind}${about}${context.length ? ` (${context.join(', ')})` : ''}: ${what.length ? what.join('; ') : 'it does not say what failed'}. ` +
    'Failure reports are not imported here; the aggregate reports (rua=) count such failures by source.'
  );
}
