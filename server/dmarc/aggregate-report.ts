import type { DkimAuthResult, PolicyOverrideReason, SpfAuthResult } from '../platform/db/schema/dmarc';

export type { DkimAuthResult, PolicyOverrideReason, SpfAuthResult };

/**
 * A DMARC aggregate report as the parser hands it on: one shape for the 2012 schema (RFC 7489
 * appendix C, and the older drafts reporters still send) and RFC 9990 (DMARCbis). Result and
 * disposition words are lower-cased; optional fields are null, never undefined.
 */
export interface AggregateReport {
  schema: 'rfc7489' | 'rfc9990';
  orgName: string;
  email: string | null;
  reportId: string;
  dateBegin: Date;
  dateEnd: Date;
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

export type ParseResult = { ok: true; report: AggregateReport } | { ok: false; error: string };

/** DMARC passes when either identifier passed aligned (RFC 7489 section 6.6.2). */
export function passesDmarc(record: Pick<AggregateRecord, 'dkimResult' | 'spfResult'>): boolean {
  return record.dkimResult === 'pass' || record.spfResult === 'pass';
}
