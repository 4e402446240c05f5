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
  /** The From address(es) the message shows its reader. */
  headerFrom: string[];
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
  return {
    spf: {
      result: spf?.status.result ?? 'none',
      domain: spf?.domain ?? null,
      record: spf?.rr ?? null,
      comment: spf?.status.comment ?? null,
    },
    // An unsigned message comes back as a pseudo-signature without a domain: no signatures is an empty list.
    dkim: result.dkim.results
      .filter((r) => typeof r.signingDomain === 'string' && r.signingDomain !== '')
      .map((r) => {
        // mailauth 4.13 reports these as `algo` and `modulusLength`, not as its typings say.
        const extra = r as { algo?: string; modulusLength?: number };
        return {
          domain: r.signingDomain,
          selector: r.selector ?? null,
          result: r.status.result,
          aligned: Boolean(r.status.aligned),
          algorithm: extra.algo ?? null,
          keyBits: extra.modulusLength ?? null,
          comment: r.status.comment ?? null,
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
    authenticationResults: result.headers.split(/\r?\n(?=\S)/).find((h) => h.startsWith('Authentication-Results:')) ?? '',
    headerFrom: result.dkim.headerFrom ?? [],
  };
}
