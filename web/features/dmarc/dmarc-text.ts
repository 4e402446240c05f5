import type {
  DmarcRecord,
  DmarcReport,
  DmarcSource,
  DmarcThreat,
  ThreatSeverity,
  UploadResponse,
} from '@contracts/dmarc';
import type { Tone } from '../../components/ui/pill';
import { percentOf } from '@contracts/figures';
import { formatCount, formatDate, formatPercent } from '../../lib/format';

/** The threat types in words a user understands without knowing what "alignment" means. */
export const THREAT_TYPE_TEXT: Record<DmarcThreat['type'], string> = {
  spoofing: 'Nothing authenticated this mail',
  misaligned: 'Authenticated for another domain',
};

export const SEVERITY: Record<ThreatSeverity, { label: string; tone: Tone }> = {
  critical: { label: 'Critical', tone: 'bad' },
  high: { label: 'High', tone: 'bad' },
  medium: { label: 'Medium', tone: 'warn' },
  low: { label: 'Low', tone: 'none' },
};

/** Most severe first: the order the headline and the badges read in. */
export const SEVERITY_ORDER: ThreatSeverity[] = ['critical', 'high', 'medium', 'low'];

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** A share of `total` as '97.5%'; '–' when there is nothing to divide by. */
export function shareText(part: number, total: number): string {
  const value = percentOf(part, total);
  return value === null ? '–' : formatPercent(value);
}

export function complianceText(compliance: number | null): string {
  return compliance === null ? 'No messages' : formatPercent(compliance);
}

/** How a service was recognised, in words; a source from before this was said is taken as its names suggest. */
function recognition(
  source: Pick<DmarcSource, 'providerMatchedBy' | 'reverseDns' | 'authDomains'> & { provider: string },
): string {
  const ptr = source.reverseDns ? `reverse DNS ${source.reverseDns}` : 'no reverse DNS';
  switch (source.providerMatchedBy ?? (source.reverseDns ? 'reverse-dns' : 'authenticated-domain')) {
    case 'reverse-dns':
      return `recognised by its reverse DNS, ${source.reverseDns}`;
    case 'published-network':
      return `recognised by a network ${source.provider} publishes in its SPF; ${ptr}`;
    case 'authenticated-domain':
      return `recognised by the domain its mail authenticated as, ${source.authDomains[0]}; ${ptr}`;
  }
}

/**
 * What the Source column says: the name (known provider, else the PTR's organisation or name, else
 * the domain the mail authenticated as) and a detail line under it. Never the IP: the IP column has it.
 */
export function sourceName(
  source: Pick<DmarcSource, 'provider' | 'providerMatchedBy' | 'organisation' | 'reverseDns' | 'authDomains'>,
): {
  name: string | null;
  detail: string | null;
} {
  const byPtr = source.organisation ?? source.reverseDns;
  const byAuth = source.authDomains[0] ?? null;
  if (source.provider) return { name: source.provider, detail: recognition({ ...source, provider: source.provider }) };
  if (byPtr)
    return { name: byPtr, detail: source.reverseDns && source.reverseDns !== byPtr ? source.reverseDns : null };
  if (byAuth) return { name: byAuth, detail: 'authenticated as this domain; no reverse DNS' };
  return { name: null, detail: 'No reverse DNS and no other domain authenticated' };
}

/** What each disposition means, said once wherever dispositions are listed. */
export const DISPOSITIONS_NOTE =
  'Dispositions are what receivers did with the mail: none (delivered), pass (delivered: it passed DMARC under an enforced policy), quarantine (spam folder) or reject.';

/** 'none 120, quarantine 3', busiest first. */
export function dispositionsText(dispositions: Record<string, number>): string {
  const entries = Object.entries(dispositions).filter(([, count]) => count > 0);
  if (entries.length === 0) return '–';
  return entries
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${formatCount(count)}`)
    .join(', ');
}

/**
 * auth_results as the receiver saw them, aligned or not: 'dkim example.com (s1) pass: "the receiver's
 * words"'. RFC 9990 requires the selector, so a 9990 report that leaves it out says so.
 */
export function authResultsText(
  record: Pick<DmarcRecord, 'dkimAuth' | 'spfAuth'>,
  schema: DmarcReport['schema'],
): string {
  const said = (humanResult: string | null) => (humanResult ? `: "${humanResult}"` : '');
  const selector = (name: string | null) => (name ? ` (${name})` : schema === 'rfc9990' ? ' (no selector)' : '');
  const dkim = record.dkimAuth.map((a) => `dkim ${a.domain}${selector(a.selector)} ${a.result}${said(a.humanResult)}`);
  const spf = record.spfAuth.map(
    (a) => `spf ${a.domain}${a.scope ? ` (${a.scope})` : ''} ${a.result}${said(a.humanResult)}`,
  );
  return [...dkim, ...spf].join('; ') || '–';
}

const SCHEMA_NAMES: Record<NonNullable<DmarcReport['schema']>, string> = {
  rfc7489: 'RFC 7489',
  rfc9990: 'RFC 9990 (DMARCbis)',
};

/** 'RFC 9990 (DMARCbis), version 1.0'; null for reports stored before the schema was kept. */
export function reportFormatText(report: Pick<DmarcReport, 'schema' | 'version'>): string | null {
  if (!report.schema) return null;
  return `${SCHEMA_NAMES[report.schema]}${report.version ? `, version ${report.version}` : ''}`;
}

const DISCOVERY_METHODS: Record<string, string> = {
  psl: 'public suffix list (RFC 7489)',
  treewalk: 'DNS tree walk (RFC 9989)',
};

/** How the receiver found the DMARC record (RFC 9990 discovery_method), in words; an unknown value as written. */
export function discoveryText(method: string): string {
  return DISCOVERY_METHODS[method] ?? method;
}

/**
 * The days a report covers. Reporters end a day at 23:59:59 or at the next 00:00:00; one second is
 * taken off the end so both read as the same single day.
 */
export function reportPeriod(report: Pick<DmarcReport, 'dateBegin' | 'dateEnd'>): string {
  const begin = formatDate(report.dateBegin, { utc: true });
  if (!report.dateEnd) return begin;
  const endTime = new Date(report.dateEnd).getTime();
  const end = formatDate(Number.isNaN(endTime) ? report.dateEnd : new Date(Math.max(endTime - 1000, 0)).toISOString(), {
    utc: true,
  });
  return begin === end || !report.dateBegin ? begin : `${begin} – ${end}`;
}

/** 'Google', or the file name when the report could not be read. */
export function reportTitle(report: Pick<DmarcReport, 'orgName' | 'fileName'>): string {
  return report.orgName || report.fileName;
}

/** At most this many failed files are named in the upload toast; the reports list has the rest. */
export const FAILED_FILES_IN_TOAST = 5;

export interface UploadSummary {
  title: string;
  counts: string;
  failures: Array<{ fileName: string; error: string }>;
  moreFailures: number;
  /** Other domains of the user's that the file held reports for: their cards show them. */
  otherDomains: string[];
  /** Domains the file held reports for that are not the user's: only DMARC report imports shows them. */
  notAddedDomains: string[];
  /** Files read in spite of a defect, and what was ignored to read them. */
  warnings: Array<{ fileName: string; warning: string }>;
  destructive: boolean;
}

/**
 * What the upload toast says: the counts, each failed file's error, what was ignored to read a file,
 * and reports for other domains, told apart by whether they are among `yourDomains` (undefined while
 * the list is unknown: then every other domain counts as yours, and nothing is said wrongly).
 */
export function summariseUpload(
  result: UploadResponse,
  domain: string,
  yourDomains?: readonly string[],
): UploadSummary {
  const failed = result.failed.length;
  const title =
    failed === 0
      ? result.imported > 0
        ? 'DMARC report uploaded'
        : 'Nothing new to import'
      : result.imported > 0
        ? 'Upload partly imported'
        : 'Upload failed';
  const counts = [
    `${formatCount(result.imported)} imported`,
    `${plural(result.duplicates, 'duplicate')} skipped`,
    `${formatCount(failed)} failed`,
  ].join(', ');
  const others = [
    ...new Set(
      result.reports
        .filter((r) => r.status === 'imported' && r.domain && r.domain !== domain)
        .map((r) => r.domain as string),
    ),
  ];
  const yours = (name: string) => yourDomains === undefined || yourDomains.includes(name);
  return {
    title,
    counts: `${counts}.`,
    failures: result.failed.slice(0, FAILED_FILES_IN_TOAST),
    moreFailures: Math.max(0, failed - FAILED_FILES_IN_TOAST),
    otherDomains: others.filter(yours),
    notAddedDomains: others.filter((name) => !yours(name)),
    warnings: [...new Map((result.warnings ?? []).map((w) => [`${w.fileName}\n${w.warning}`, w])).values()].slice(
      0,
      FAILED_FILES_IN_TOAST,
    ),
    destructive: failed > 0 && result.imported === 0,
  };
}

/** Why a mailed report is marked Unauthenticated, for reports stored before the server kept its own reason. */
const UNAUTHENTICATED_HINT =
  'The mail that brought this report was not signed by the reporting organisation, so anyone could have sent it.';

/** Why this report is marked Unauthenticated (server/dmarc/report-sender.ts says why), and what that means. */
export function unauthenticatedText(report: Pick<DmarcReport, 'unauthenticatedReason'>): string {
  return `${report.unauthenticatedReason ?? UNAUTHENTICATED_HINT} Not counted in your figures.`;
}

/** The line over a domain's reports when some are kept apart. */
export function unauthenticatedCountText(count: number): string {
  return count === 1
    ? '1 unauthenticated report is kept apart: it is not counted in your figures.'
    : `${plural(count, 'unauthenticated report')} are kept apart: they are not counted in your figures.`;
}
