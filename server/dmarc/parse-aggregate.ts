import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isIP } from 'node:net';
import type { AggregateRecord, AggregateReport, DkimAuthResult, ParseResult, PolicyOverrideReason, SpfAuthResult } from './aggregate-report';
import { decodeXmlBytes } from './decode-text';

/*
 * DMARC aggregate report XML -> AggregateReport, or an error sentence a user can act on.
 * Pure: no I/O. Tolerant where real reporters deviate harmlessly (upper-case 'Pass', empty
 * <reason>, junk around <feedback>, missing optional fields); strict where a stored row would
 * be wrong (broken XML, bad UTF-8, a count that is not a number, an address that is not an IP).
 */

// DMARC reports never carry a DTD. Refusing any DOCTYPE or ENTITY declaration up front means no
// entity can ever be defined, so none can be expanded (billion laughs, external entities).
const DTD = /<!(?:DOCTYPE|ENTITY)/i;
const RFC9990_NAMESPACE = 'urn:ietf:params:xml:ns:dmarc-2.0';
const FEEDBACK_START = /<([A-Za-z_][\w.-]*:)?feedback(?=[\s>/])[^>]*>/;
const MAX_COUNT = 2_147_483_647;

const ARRAY_PATHS = new Set([
  'feedback.record',
  'feedback.record.auth_results.dkim',
  'feedback.record.auth_results.spf',
  'feedback.record.row.policy_evaluated.reason',
]);

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  // Safe with the DTD refused above: only the five predefined entities and character references remain.
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, jPath) => ARRAY_PATHS.has(jPath as string),
});

class ReportError extends Error {}

export function parseAggregateReport(input: Uint8Array | string): ParseResult {
  if (input.length === 0) return { ok: false, error: 'The file is empty.' };
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const decoded = decodeXmlBytes(input);
    if (!decoded.ok) return decoded;
    text = decoded.text;
  }
  if (text.trim() === '') return { ok: false, error: 'The file is empty.' };
  if (DTD.test(text)) {
    return { ok: false, error: 'The file contains a DOCTYPE or ENTITY declaration. DMARC reports never do, so it was refused without expanding anything.' };
  }
  const start = FEEDBACK_START.exec(text);
  if (!start) {
    const valid = XMLValidator.validate(text);
    if (valid !== true) return { ok: false, error: xmlError(valid.err, 0) };
    return { ok: false, error: 'The file is XML but not a DMARC aggregate report: it has no <feedback> element.' };
  }
  // Some reporters wrap the report in junk (an unclosed <xs:schema> tag, trailing text): only the
  // <feedback> element is the report, so only it has to be well-formed.
  const endTag = `</${start[1] ?? ''}feedback`;
  const endAt = text.lastIndexOf(endTag);
  const closeAt = endAt < 0 ? -1 : text.indexOf('>', endAt);
  const xml = text.slice(start.index, closeAt < 0 ? text.length : closeAt + 1);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, error: xmlError(valid.err, lineOf(text, start.index) - 1) };

  try {
    const feedback = (parser.parse(xml) as { feedback?: Node }).feedback;
    const schema = start[0].includes(RFC9990_NAMESPACE) ? 'rfc9990' : 'rfc7489';
    return { ok: true, report: toReport(obj(feedback, 'feedback'), schema) };
  } catch (err) {
    if (err instanceof ReportError) return { ok: false, error: err.message };
    return { ok: false, error: `The file is not valid XML: ${(err as Error).message}` };
  }
}

function xmlError(err: { msg: string; line: number; col?: number }, lineOffset: number): string {
  const where = err.col ? `line ${err.line + lineOffset}, column ${err.col}` : `line ${err.line + lineOffset}`;
  return `The file is not valid XML: ${err.msg.replace(/\.$/, '')} (${where}).`;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

type Node = string | { [key: string]: Node | Node[] } | Node[] | undefined;
type Obj = { [key: string]: Node | Node[] };

function obj(node: Node, path: string): Obj {
  if (node && typeof node === 'object' && !Array.isArray(node)) return node;
  // <auth_results></auth_results> and the like parse as an empty string.
  if (node === '') return {};
  throw new ReportError(`The report has no <${path}> section.`);
}

function optObj(node: Node): Obj {
  return node && typeof node === 'object' && !Array.isArray(node) ? node : {};
}

function list(node: Node): Node[] {
  if (node === undefined || node === '') return [];
  return Array.isArray(node) ? node : [node];
}

/**
 * The longest text one element may hold. Real reports stay far below (a report id is tens of
 * characters, a domain at most 253); a hostile one must not make us store megabytes per field.
 */
export const MAX_FIELD_CHARS = 1024;

/** Element text, trimmed; null when absent or empty. `path` names the element when it is too long. */
function str(node: Node, path = 'a value'): string | null {
  let text: string | null = null;
  if (typeof node === 'string') text = node.trim() || null;
  else if (node && typeof node === 'object' && !Array.isArray(node) && typeof node['#text'] === 'string') text = node['#text'].trim() || null;
  if (text !== null && text.length > MAX_FIELD_CHARS) {
    throw new ReportError(`The report's ${path} is longer than ${MAX_FIELD_CHARS.toLocaleString('en-US')} characters.`);
  }
  return text;
}

const lower = (node: Node, path?: string) => str(node, path)?.toLowerCase() ?? null;

function toReport(feedback: Obj, schema: AggregateReport['schema']): AggregateReport {
  const meta = obj(feedback.report_metadata as Node, 'report_metadata');
  const reportId = str(meta.report_id as Node, 'report_id (report_metadata/report_id)');
  if (!reportId) throw new ReportError('The report has no report_id (report_metadata/report_id).');
  const email = str(meta.email as Node, 'e-mail (report_metadata/email)');
  // Some reporters leave org_name empty; their e-mail domain names them well enough to tell reports apart.
  const orgName = str(meta.org_name as Node, 'org_name (report_metadata/org_name)') ?? email?.split('@').pop() ?? '';
  const range = obj(meta.date_range as Node, 'report_metadata/date_range');
  const dateBegin = unixTime(range.begin as Node, 'begin');
  const dateEnd = unixTime(range.end as Node, 'end');

  const published = obj(feedback.policy_published as Node, 'policy_published');
  const domain = lower(published.domain as Node, 'domain (policy_published/domain)');
  if (!domain) throw new ReportError('The report does not say which domain it covers (policy_published/domain).');
  const pct = str(published.pct as Node);
  const policy = {
    domain,
    adkim: lower(published.adkim as Node),
    aspf: lower(published.aspf as Node),
    p: lower(published.p as Node),
    sp: lower(published.sp as Node),
    np: lower(published.np as Node),
    pct: pct && /^\d{1,3}$/.test(pct) ? Number(pct) : null,
    fo: str(published.fo as Node),
    testing: lower(published.testing as Node),
  };
  const records = list(feedback.record as Node).map((record, i) => {
    try {
      return toRecord(optObj(record), i + 1);
    } catch (err) {
      // A value too long inside a record: say which record.
      if (err instanceof ReportError && err.message.startsWith("The report's a value")) {
        throw new ReportError(`Record ${i + 1}: a value is longer than ${MAX_FIELD_CHARS.toLocaleString('en-US')} characters.`);
      }
      throw err;
    }
  });
  if (records.reduce((sum, r) => sum + r.count, 0) > MAX_COUNT) throw new ReportError('The report counts more messages than can be stored (over 2^31).');
  return { schema, orgName, email, reportId, dateBegin, dateEnd, policy, records };
}

function unixTime(node: Node, which: string): Date {
  const value = str(node);
  if (!value || !/^\d{1,12}(\.\d+)?$/.test(value)) {
    throw new ReportError(
      `The report's date range ${which} is ${value ? `"${value}"` : 'missing'}; it must be a Unix time (report_metadata/date_range/${which}).`,
    );
  }
  return new Date(Math.floor(Number(value)) * 1000);
}

function toRecord(record: Obj, n: number): AggregateRecord {
  const row = optObj(record.row as Node);
  const ip = str(row.source_ip as Node);
  if (!ip || !isIP(ip)) throw new ReportError(`Record ${n}: ${ip ? `"${ip}" is not an IP address` : 'the source IP is missing'} (row/source_ip).`);
  const countText = str(row.count as Node);
  if (!countText || !/^\d+$/.test(countText) || Number(countText) > MAX_COUNT) {
    throw new ReportError(`Record ${n}: the message count ${countText ? `"${countText}" is not a whole number` : 'is missing'} (row/count).`);
  }
  const evaluated = optObj(row.policy_evaluated as Node);
  const disposition = lower(evaluated.disposition as Node);
  if (!disposition) throw new ReportError(`Record ${n}: the disposition is missing (row/policy_evaluated/disposition).`);
  const identifiers = optObj(record.identifiers as Node);
  const auth = optObj(record.auth_results as Node);
  return {
    sourceIp: ip,
    count: Number(countText),
    disposition,
    dkimResult: lower(evaluated.dkim as Node) ?? 'none',
    spfResult: lower(evaluated.spf as Node) ?? 'none',
    reason: reasons(evaluated.reason as Node),
    headerFrom: lower(identifiers.header_from as Node) ?? '',
    envelopeFrom: lower(identifiers.envelope_from as Node),
    envelopeTo: lower(identifiers.envelope_to as Node),
    dkimAuth: list(auth.dkim as Node).map((d): DkimAuthResult => {
      const o = optObj(d);
      return {
        domain: lower(o.domain as Node) ?? '',
        selector: str(o.selector as Node),
        result: lower(o.result as Node) ?? 'none',
        humanResult: str(o.human_result as Node),
      };
    }),
    spfAuth: list(auth.spf as Node).map((s): SpfAuthResult => {
      const o = optObj(s);
      return {
        domain: lower(o.domain as Node) ?? '',
        scope: lower(o.scope as Node),
        result: lower(o.result as Node) ?? 'none',
        humanResult: str(o.human_result as Node),
      };
    }),
  };
}

/** An empty <reason><type/><comment/></reason> says nothing: dropped rather than stored as blank. */
function reasons(node: Node): PolicyOverrideReason[] | null {
  const found = list(node)
    .map((r) => optObj(r))
    .map((o): PolicyOverrideReason | null => {
      const type = lower(o.type as Node);
      const comment = str(o.comment as Node);
      return type || comment ? { type: type ?? 'other', comment } : null;
    })
    .filter((r): r is PolicyOverrideReason => r !== null);
  return found.length ? found : null;
}
