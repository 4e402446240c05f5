import type { DkimAuthResult, PolicyOverrideReason, SpfAuthResult } from '../platform/db/schema/dmarc';

export type { DkimAuthResult, PolicyOverrideReason, SpfAuthResult };

/**
 * A DMARC aggregate report as the parser hands it on: one shape for the 2012 schema (RFC 7489
 * appendix C, and the older drafts reporters still send) and RFC 9990 (DMARCbis). Result and
 * disposition words are lower-cased; optional fields are null, never undefined.
 */
export interface AggregateReport {
  /** rfc9990: <feedback> is in the RFC 9990 namespace (urn:ietf:params:xml:ns:dmarc-2.0). */
  schema: 'rfc7489' | 'rfc9990';
  /** <version>, as written (RFC 9990 asks for 1.0; drafts sent 2.0). */
  version: string | null;
  orgName: string;
  email: string | null;
  reportId: string;
  dateBegin: Date;
  dateEnd: Date;
  /** RFC 9990 report_metadata/generator: the software that wrote the report. */
  generator: string | null;
  policy: {
    domain: string;
    adkim: string | null;
    aspf: string | null;
    p: string | null;
    sp: string | null;
    np: string | null;
    pct: number | null;
    fo: string | null;
    testing: string | null;
    /** RFC 9990: how the receiver found the policy record, psl (RFC 7489) or treewalk (RFC 9989). */
    discoveryMethod: string | null;
  };
  records: AggregateRecord[];
}

export interface AggregateRecord {
  sourceIp: string;
  count: number;
  disposition: string;
  dkimResult: string;
  spfResult: string;
  reason: PolicyOverrideReason[] | null;
  headerFrom: string;
  envelopeFrom: string | null;
  envelopeTo: string | null;
  dkimAuth: DkimAuthResult[];
  spfAuth: SpfAuthResult[];
}

/** warnings: what was recovered to read the report (ADR 017), absent when nothing was. */
export type ParseResult = { ok: true; report: AggregateReport; warnings?: string[] } | { ok: false; error: string };

/**
 * DMARC passes when either identifier passed aligned (RFC 7489 section 6.6.2), or when the receiver
 * says so by the disposition RFC 9990 adds: "pass", no action, passing DMARC under an enforcing policy.
 */
export function passesDmarc(record: Pick<AggregateRecord, 'dkimResult' | 'spfResult' | 'disposition'>): boolean {
  return record.dkimResult === 'pass' || record.spfResult === 'pass' || record.disposition === 'pass';
}
