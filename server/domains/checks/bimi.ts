import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { BimiCertificate, DmarcCheck, DomainChecks, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { fetchUrl, type Fetched, type FetchOptions } from './fetch-url';
import { error, info, statusOf } from './finding';
import { parseStrictTagList } from './tag-list';
import { findRecord, lookupRecords, type RecordKind } from './versioned-record';

/*
 * BIMI as draft-brand-indicators-for-message-identification-10 defines it (sections named "draft 4.3"
 * and so on below): the assertion record at default._bimi.<domain>, the DMARC enforcement it needs,
 * the SVG Tiny PS logo at l= and the mark certificate at a=. The SVG and certificate checks are
 * mailauth's (validateBimiSvg, and validateBimiVmc over @postalsys/vmc); the files they check are
 * fetched here, through the outbound guard, never by mailauth.
 */

type Checks = z.infer<typeof DomainChecks>;

const BIMI: RecordKind = {
  name: 'BIMI',
  version: 'v=BIMI1',
  readers: 'mailbox providers',
  lost: 'no BIMI logo is shown',
};

/** The BIMI SVG profile sets a logo's size at 32 KB, and mailbox providers refuse larger ones: nothing past it is read. */
const MAX_LOGO_BYTES = 32 * 1024;
/** A mark certificate's PEM file is its chain, a few KB a certificate, and the logo it embeds (32 KB at most). */
const MAX_CERTIFICATE_BYTES = 128 * 1024;
/** An SVGZ logo is inflated up to this much: more is not a logo. */
const MAX_INFLATED_BYTES = 1024 * 1024;
const USER_AGENT = 'InboxPulse BIMI check';

export interface BimiCheckOptions extends FetchOptions {
  /** When the mark certificate's validity is checked; tests pin a time within their fixture's. */
  now?: Date;
}

/** What BIMI reads of the DMARC check: the record's tags and where it was found (null when there is none). */
export type DmarcForBimi = Pick<z.infer<typeof DmarcCheck>, 'tags' | 'foundAt' | 'discovery'>;

/** BIMI: the record, the domain's DMARC enforcement, the logo and the mark certificate. */
export async function checkBimi(
  dns: DnsResolver,
  domain: string,
  dmarc: DmarcForBimi,
  options: BimiCheckOptions = {},
): Promise<Checks['bimi']> {
  const ownName = `default._bimi.${domain}`;
  const own = await lookupRecords(dns, ownName, domain, BIMI);
  if (!Array.isArray(own)) return { status: 'invalid', record: null, findings: [own] };
  let { record, findings } = findRecord(own, ownName, BIMI);
  // Draft 7.2 step 6: with no record of its own, a subdomain uses its Organizational Domain's (found by the DMARC
  // check).
  const orgDomain = dmarc.discovery?.organizationalDomain;
  let recordDomain = domain;
  if (!record && orgDomain && orgDomain !== domain) {
    const orgName = `default._bimi.${orgDomain}`;
    const inherited = await lookupRecords(dns, orgName, orgDomain, BIMI);
    if (!Array.isArray(inherited)) return { status: 'invalid', record: null, findings: [inherited] };
    ({ record, findings } = findRecord(inherited, orgName, BIMI));
    if (record) {
      recordDomain = orgDomain;
      findings.unshift(
        info(
          `${domain} has no BIMI record of its own, so mailbox providers use the one of its Organizational Domain at ${orgName} (BIMI draft section 7.2).`,
          `To show another logo for ${domain}, or none, publish a record at ${ownName} ("v=BIMI1; l=; a=" declines).`,
        ),
      );
    }
  }
  if (!record)
    return {
      status: 'missing',
      record: null,
      findings: [
        info(
          'No BIMI record: mailbox providers show no brand logo.',
          `Publish "v=BIMI1; l=https://.../logo.svg" at ${ownName}.`,
        ),
      ],
    };
  // Draft 4.3: the DKIM tag-value syntax (RFC 6376 3.2), "defined precisely": receivers "MUST NOT attempt to fix
  // syntactical or capitalization errors".
  const list = parseStrictTagList(record);
  if (!list.ok) {
    findings.push(
      error(
        `The BIMI record is not a valid tag list (${list.problem}), and mailbox providers do not correct it: they ignore it.`,
        'Write it as tag=value pairs separated by ";", each tag once, e.g. "v=BIMI1; l=https://…/logo.svg".',
      ),
    );
    return { status: statusOf(findings), record, findings };
  }
  const tags = list.tags;
  if (tags.get('v') !== 'BIMI1')
    findings.push(
      error(
        `The record begins with "${record.split(';')[0].trim()}"; it must be exactly "v=BIMI1", or mailbox providers ignore it.`,
        'Write "v=BIMI1".',
      ),
    );
  // Draft 4.3: a= absent is taken as empty; 4.3.1: both empty is a declination to publish.
  const [location, authority] = [tags.get('l'), tags.get('a') ?? ''];
  if (location === '' && authority === '') {
    findings.push(
      info('This domain declines to show a BIMI logo (an empty l= and a=): mailbox providers show none for it.'),
    );
    return { status: statusOf(findings), record, findings };
  }
  const logoUrl = checkLocation(location, authority, findings);
  const certificateUrl = checkAuthority(authority, findings);
  findings.push(...dmarcFindings(domain, dmarc));

  const [logoFetch, pemFetch] = await Promise.all([
    logoUrl ? fetchUrl(dns, logoUrl, MAX_LOGO_BYTES, USER_AGENT, options) : null,
    certificateUrl ? fetchUrl(dns, certificateUrl, MAX_CERTIFICATE_BYTES, USER_AGENT, options) : null,
  ]);
  const logo = logoUrl && logoFetch ? await checkLogo(logoUrl, logoFetch) : null;
  const certificate =
    certificateUrl && pemFetch
      ? await checkCertificate(
          recordDomain,
          certificateUrl,
          pemFetch,
          logoUrl && logo?.file ? { url: logoUrl, file: logo.file } : null,
          options.now,
        )
      : null;
  findings.push(...(logo?.findings ?? []), ...(certificate?.findings ?? []));
  if (authority === '' && logoUrl)
    findings.push(
      info(
        'There is no a= mark certificate: Gmail and Apple Mail show BIMI logos only with a Verified Mark Certificate (VMC) or a Common Mark Certificate (CMC).',
        'To be shown there, get a VMC (for a registered trademark) or a CMC from a mark verifying authority such as DigiCert or Entrust, publish its PEM file over HTTPS and name it in a=.',
      ),
    );
  return {
    status: statusOf(findings),
    record,
    findings,
    ...(logo?.summary && { logo: logo.summary }),
    ...(certificate?.certificate && { certificate: certificate.certificate }),
  };
}

/** Why an l= or a= value is not what draft 4.3 asks, a single https: URI with a host name; null when it is. */
function uriProblem(value: string): 'several' | 'not-https' | null {
  // "commas within a URI MUST be encoded": an unencoded one separates two URIs (earlier drafts allowed a list).
  if (value.includes(',')) return 'several';
  return URL.canParse(value) && new URL(value).protocol === 'https:' && new URL(value).hostname.includes('.')
    ? null
    : 'not-https';
}

const asHttps = (value: string) => `https://${value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}`;

/** The logo URL to fetch, or null, with findings on l= (draft 4.3, 7.3 step 1). */
function checkLocation(location: string | undefined, authority: string, findings: Finding[]): string | null {
  if (location === undefined) {
    findings.push(
      error(
        'The BIMI record has no l= tag, so mailbox providers show no logo.',
        'Add l=https://…/logo.svg naming your SVG Tiny PS logo, or publish "v=BIMI1; l=; a=;" to decline BIMI.',
      ),
    );
    return null;
  }
  if (location === '') {
    if (authority !== '')
      findings.push(
        error(
          'l= is empty while a= names a mark certificate, so mailbox providers have no logo to show.',
          'Add l=https://…/logo.svg naming the SVG logo your certificate was issued for.',
        ),
      );
    return null;
  }
  const problem = uriProblem(location);
  if (problem === null) return location;
  findings.push(
    error(
      `l= "${location}" is not ${problem === 'several' ? 'a single' : 'an'} https: URL: mailbox providers fetch BIMI logos only over HTTPS, so they show none.`,
      problem === 'several'
        ? 'Name one logo in l=, e.g. l=https://…/logo.svg.'
        : `Serve the logo over HTTPS and write l=${asHttps(location)}.`,
    ),
  );
  return null;
}

/** The certificate URL to fetch, or null, with findings on a= (draft 4.3). */
function checkAuthority(authority: string, findings: Finding[]): string | null {
  if (authority === '') return null;
  const problem = uriProblem(authority);
  if (problem === null) return authority;
  findings.push(
    error(
      `a= "${authority}" is not ${problem === 'several' ? 'a single' : 'an'} https: URL, so mailbox providers cannot check your mark certificate.`,
      problem === 'several'
        ? 'Name one PEM file in a=.'
        : `Serve the certificate's PEM file over HTTPS and write a=${asHttps(authority)}.`,
    ),
  );
  return null;
}

/**
 * Draft 7.1 steps 7 to 9: no BIMI unless the DMARC policy is enforced, for the domain and its
 * organizational domain, on all failing mail. The record in hand is the domain's own, or the one found
 * at its organizational domain, whose sp= then applies to it (RFC 7489 6.6.3).
 */
function dmarcFindings(domain: string, dmarc: DmarcForBimi): Finding[] {
  const none = (reason: string, fix: string) =>
    error(`Mailbox providers show no BIMI logo for ${domain}: ${reason}`, fix);
  const at = dmarc.foundAt;
  if (!at)
    return [
      none(
        'it has no DMARC record, and BIMI requires a DMARC policy of quarantine or reject.',
        'Publish a DMARC record with p=quarantine or p=reject (see the DMARC check).',
      ),
    ];
  const [p, sp, pct, t] = ['p', 'sp', 'pct', 't'].map((tag) => dmarc.tags[tag]?.toLowerCase());
  const findings: Finding[] = [];
  // Step 7: p=none, for the domain or for its organizational domain.
  if (p !== 'quarantine' && p !== 'reject')
    findings.push(
      none(
        `the DMARC record at ${at} has p=${p ?? '(none given)'}, and BIMI requires p=quarantine or p=reject.`,
        `Once your DMARC reports show your senders pass, set p=quarantine, then p=reject, at ${at}.`,
      ),
    );
  // Step 8: any sp=none, even beside an enforced p=.
  if (sp === 'none')
    findings.push(
      none(
        `the DMARC record at ${at} has sp=none, and BIMI requires subdomain policies to be enforced too.`,
        `Set sp=quarantine or sp=reject at ${at}, or remove sp= so that p= covers subdomains.`,
      ),
    );
  // Step 9: quarantine on only part of the failing mail (the rest gets none). A partial reject is
  // still enforced, the rest being quarantined (RFC 7489 6.6.4); likewise RFC 9989's t=y applies
  // quarantine as none and reject as quarantine.
  const applied = at === `_dmarc.${domain}` ? p : (sp ?? p);
  const quarantine = p === 'quarantine' || applied === 'quarantine';
  if (quarantine && pct !== undefined && /^\d+$/.test(pct) && Number(pct) < 100)
    findings.push(
      none(
        `the DMARC policy quarantine applies to only ${Number(pct)}% of failing mail (pct=${pct}), and BIMI requires pct=100.`,
        `Set pct=100 at ${at}, or remove pct= (100 is the default).`,
      ),
    );
  if (quarantine && t === 'y')
    findings.push(
      none(
        `the DMARC record at ${at} has t=y (testing), so its quarantine policy is applied as none, and BIMI requires enforcement.`,
        `Remove t=y at ${at} once your DMARC reports show your senders pass.`,
      ),
    );
  return findings;
}

/** The logo at l= as fetched: its findings, what the result says of it, and the file, for the certificate's logo to be compared with. */
async function checkLogo(
  url: string,
  fetched: Fetched,
): Promise<{ findings: Finding[]; summary?: Checks['bimi']['logo']; file?: Buffer }> {
  if ('problem' in fetched)
    return {
      findings: [
        error(
          `The logo at ${url} ${fetched.problem}.`,
          fetched.tooLarge
            ? 'Keep the SVG under 32 KB, the size the BIMI SVG profile sets and mailbox providers accept: simplify paths, remove metadata and embedded fonts.'
            : `Serve the SVG logo at ${url} itself, with HTTP 200.`,
        ),
      ],
    };
  const problem = await svgProblem(fetched.body);
  return {
    findings: problem
      ? [error(`The logo at ${url} ${problem.problem}, so mailbox providers do not show it.`, problem.fix)]
      : [],
    summary: { url, bytes: fetched.body.length, valid: problem === null },
    file: fetched.body,
  };
}

/** What SVG Tiny PS forbids, as mailauth's validateBimiSvg reports it, in words and with the fix. */
const SVG_PROBLEMS: Record<string, (details: { element?: string; link?: string }) => { problem: string; fix: string }> =
  {
    INVALID_BASE_PROFILE: () => ({
      problem: 'is not SVG Tiny PS: its <svg> element has no baseProfile="tiny-ps"',
      fix: 'Export the logo as SVG Tiny PS: version="1.2" and baseProfile="tiny-ps" on the <svg> element, and nothing the profile forbids.',
    }),
    LOGO_MISSING_TITLE: () => ({
      problem: 'has no <title>, which SVG Tiny PS requires',
      fix: 'Add <title>Your brand name</title> right after the <svg> tag.',
    }),
    LOGO_INVALID_ROOT_ATTRS: () => ({
      problem: 'has x= or y= on its <svg> element, which SVG Tiny PS forbids',
      fix: 'Remove x= and y= from the <svg> element.',
    }),
    LOGO_INCLUDES_REFERENCE: ({ link }) => ({
      problem: `refers to an external resource (${link}), which SVG Tiny PS forbids`,
      fix: 'Embed everything in the SVG file itself and remove the link.',
    }),
    LOGO_INVALID_ELEMENT: ({ element }) => ({
      problem: `contains a <${element}> element, which SVG Tiny PS forbids`,
      fix: 'Remove scripts and animations from the logo.',
    }),
  };
const NOT_SVG = {
  problem: 'is not an SVG image, the only format BIMI allows',
  fix: 'Publish the logo as an SVG Tiny PS file.',
};

/** Draft 4.3.2 and 7.6: an SVG (or gzip-compressed SVGZ) file meeting the SVG Tiny PS profile; null when it does. */
async function svgProblem(file: Buffer): Promise<{ problem: string; fix: string } | null> {
  // Loaded on first use, as every start-up dependency only some jobs need (ADR 060): it adds to each start's time to first answer.
  const { validateBimiSvg } = await import('mailauth');
  let svg = file;
  if (file[0] === 0x1f && file[1] === 0x8b) {
    try {
      svg = gunzipSync(file, { maxOutputLength: MAX_INFLATED_BYTES });
    } catch {
      return NOT_SVG;
    }
  }
  try {
    validateBimiSvg(svg);
    return null;
  } catch (err) {
    const { code, details } = err as { code?: string; details?: { element?: string; link?: string } };
    return SVG_PROBLEMS[code ?? '']?.(details ?? {}) ?? NOT_SVG;
  }
}

interface CertificateSubject {
  organizationName?: string;
  commonName?: string;
}
interface CertificateInfo {
  subject?: CertificateSubject;
  issuer?: CertificateSubject;
  subjectAltName?: string[];
  validFrom: string;
  validTo: string;
}

const nameOf = (subject: CertificateSubject | undefined) =>
  subject?.organizationName ?? subject?.commonName ?? '(unnamed)';

/**
 * The mark certificate (draft 7.4, whose evidence documents are VMCs and CMCs), validated offline by
 * mailauth's validateBimiVmc over @postalsys/vmc: its chain to a BIMI root, its validity, the logo it
 * embeds, that it covers the domain (its own name or organizational domain, as mailauth aligns them),
 * and that the logo at l= is that logo.
 */
async function checkCertificate(
  domain: string,
  url: string,
  fetched: Fetched,
  logo: { url: string; file: Buffer } | null,
  now: Date | undefined,
): Promise<{ findings: Finding[]; certificate?: BimiCertificate }> {
  if ('problem' in fetched)
    return {
      findings: [
        error(
          `The mark certificate at ${url} ${fetched.problem}.`,
          `Serve the certificate's PEM file at ${url} itself, with HTTP 200.`,
        ),
      ],
    };
  const { validateBimiVmc } = await import('mailauth');
  const checked = await validateBimiVmc(
    {
      // Where the record was found, as mailauth's own lookup reports it.
      status: { result: 'pass', header: { selector: 'default', d: domain } },
      info: '',
      // Both files are given, so validateBimiVmc fetches nothing itself (it would, past the outbound guard).
      authority: url,
      authorityPath: fetched.body,
      ...(logo && { location: logo.url, locationPath: logo.file }),
    },
    { now },
  );
  const authority = checked ? checked.authority : undefined;
  if (authority?.success) {
    const vmc = authority.vmc as { type: 'VMC' | 'CMC'; certificate: CertificateInfo };
    const logoMatches = logo ? authority.hashMatch === true : null;
    const certificate: BimiCertificate = {
      type: vmc.type,
      subject: nameOf(vmc.certificate.subject),
      issuer: nameOf(vmc.certificate.issuer),
      validFrom: vmc.certificate.validFrom,
      validTo: vmc.certificate.validTo,
      domains: vmc.certificate.subjectAltName ?? [],
      logoMatches,
    };
    const findings =
      logo && !logoMatches
        ? [
            error(
              `The logo at ${logo.url} is not the logo in the mark certificate at ${url}, so mailbox providers do not show it.`,
              'Publish at l= the exact SVG file the certificate was issued for.',
            ),
          ]
        : [];
    return { findings, certificate };
  }
  const failure = authority?.error ?? { message: 'no result' };
  return { findings: [certificateError(domain, url, failure as CertificateFailure, now ?? new Date())] };
}

interface CertificateFailure {
  message: string;
  code?: string;
  details?: { subjectAltName?: string[]; certificate?: CertificateInfo; message?: string };
}

/** A certificate that failed validation, in words, by the codes of @postalsys/vmc and mailauth. */
function certificateError(domain: string, url: string, failure: CertificateFailure, now: Date): Finding {
  const certificate = `The mark certificate at ${url}`;
  const untrusted = error(
    `${certificate} does not chain to the root of a mark verifying authority, so mailbox providers do not trust it.`,
    'Publish the PEM file your mark verifying authority issued: your certificate first, then its intermediate certificates.',
  );
  const unshown = 'so mailbox providers do not show the logo';
  switch (failure.code) {
    case 'INVALID_CERT_BUNDLE':
      return error(
        `${certificate} holds no PEM certificate, so mailbox providers cannot check it.`,
        'Publish the PEM file (-----BEGIN CERTIFICATE-----) your mark verifying authority issued.',
      );
    case 'VMC_DOMAIN_MISMATCH':
      return error(
        `${certificate} is for ${failure.details?.subjectAltName?.join(', ') || 'no domain'}, not ${domain}, ${unshown}.`,
        `Publish the certificate issued for ${domain}, or have ${domain} added to yours.`,
      );
    case 'CERTIFICATE_VERIFICATION_ERROR': {
      // Also raised for a chain whose signer is no authority: the dates tell which it was.
      const dates = failure.details?.certificate;
      if (dates && now > new Date(dates.validTo))
        return error(
          `${certificate} expired on ${dates.validTo.slice(0, 10)}, ${unshown}.`,
          'Renew the certificate with your mark verifying authority and publish the new PEM file.',
        );
      if (dates && now < new Date(dates.validFrom))
        return error(
          `${certificate} is not valid before ${dates.validFrom.slice(0, 10)}, ${unshown} yet.`,
          'Wait for that date, or publish your current certificate.',
        );
      return untrusted;
    }
    case 'INVALID_CHAIN':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return untrusted;
    case 'BIMI_EXT_KEY_MISSING':
      return error(
        `${certificate} is not a BIMI mark certificate (it lacks the BIMI extended key usage), ${unshown}.`,
        'Get a VMC or CMC from a mark verifying authority; a web server certificate does not do.',
      );
    case 'INVALID_LOGOTYPE_EXT':
    case 'MISSING_VMC_LOGO':
    case 'INVALID_MEDIATYPE':
      return error(
        `${certificate} carries no SVG logo, ${unshown}.`,
        'Ask your mark verifying authority for a certificate that embeds your SVG logo.',
      );
    case 'INVALID_LOGO_HASH':
      return error(
        `${certificate} carries a logo that does not match its own hash of it, ${unshown}.`,
        'Ask your mark verifying authority to reissue it.',
      );
    case 'SVG_VALIDATION_FAILED':
      return error(
        `${certificate} carries a logo that is not SVG Tiny PS (${failure.details?.message ?? failure.message}), ${unshown}.`,
        'Ask your mark verifying authority to reissue it with an SVG Tiny PS logo.',
      );
    default:
      return error(
        `${certificate} could not be validated (${failure.message}), ${unshown}.`,
        'Publish the PEM file your mark verifying authority issued.',
      );
  }
}
