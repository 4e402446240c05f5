/** The DMARC policies a new domain can start with (part 2, section 2). */
export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
export const DEFAULT_DMARC_POLICY: DmarcPolicy = 'quarantine';

export const DMARC_POLICY_TEXT: Record<DmarcPolicy, string> = {
  none: 'none: monitor only, deliver everything',
  quarantine: 'quarantine: failing mail goes to spam',
  reject: 'reject: failing mail is refused',
};

export interface SuggestedRecord {
  /** Stable key and accessible name of the record's group. */
  id: 'ownership' | 'spf' | 'dkim' | 'dmarc';
  title: string;
  type: 'TXT';
  /** The name to publish, as the spec and the server give it (what Copy record name copies). */
  name: string;
  /** The same name written the other way (full, or relative to the domain), for DNS forms that want it so. */
  altName: { label: string; value: string };
  value: string;
  note: string;
}

/** Part 2, section 2: a Google include as the SPF suggestion. */
export const SUGGESTED_SPF = 'v=spf1 include:_spf.google.com ~all';
export const DKIM_SELECTOR = 'default';
export const DKIM_PLACEHOLDER = 'v=DKIM1; k=rsa; p=YOUR_PUBLIC_KEY';

/**
 * The suggested DMARC record. `reportAddress` is InboxPulse's report address as the server gives it
 * (GET /api/dmarc/intake): reports sent there reach the domain's DMARC panel. Without it (still
 * loading, or not loaded) the record has no rua= rather than a guessed address.
 */
export function dmarcRecord(policy: DmarcPolicy, reportAddress: string | null): string {
  return reportAddress ? `v=DMARC1; p=${policy}; rua=mailto:${reportAddress}` : `v=DMARC1; p=${policy}`;
}

/** `name` relative to `domain` ('@' for the apex), as DNS provider forms expect it. */
export function relativeName(name: string, domain: string): string {
  const bare = name.replace(/\.$/, '');
  const lowerName = bare.toLowerCase();
  const lowerDomain = domain.toLowerCase();
  if (lowerName === lowerDomain) return '@';
  if (lowerName.endsWith(`.${lowerDomain}`)) return bare.slice(0, bare.length - lowerDomain.length - 1);
  return bare;
}

/** The records an unverified domain should publish, in the order a user sets them up. */
export function suggestedRecords(
  domain: string,
  verificationRecord: { name: string; value: string },
  policy: DmarcPolicy,
  reportAddress: string | null,
): SuggestedRecord[] {
  return [
    {
      id: 'ownership',
      title: 'Ownership verification (TXT)',
      type: 'TXT',
      name: verificationRecord.name,
      altName: { label: 'Host only', value: relativeName(verificationRecord.name, domain) },
      value: verificationRecord.value,
      note: 'Proves that you control this domain. Keep it published.',
    },
    {
      id: 'spf',
      title: 'SPF record (TXT)',
      type: 'TXT',
      name: '@',
      altName: { label: 'Full name', value: domain },
      value: SUGGESTED_SPF,
      note: 'Suggested for Google Workspace. If you send through another provider, use the include it documents; a domain has exactly one SPF record.',
    },
    {
      id: 'dkim',
      title: 'DKIM record (TXT)',
      type: 'TXT',
      name: `${DKIM_SELECTOR}._domainkey`,
      altName: { label: 'Full name', value: `${DKIM_SELECTOR}._domainkey.${domain}` },
      value: DKIM_PLACEHOLDER,
      note: 'Your email provider generates the key: replace YOUR_PUBLIC_KEY with the public key it gives you. If it uses another selector than "default", add that selector with Edit Domain so it is checked.',
    },
    {
      id: 'dmarc',
      title: 'DMARC record (TXT)',
      type: 'TXT',
      name: '_dmarc',
      altName: { label: 'Full name', value: `_dmarc.${domain}` },
      value: dmarcRecord(policy, reportAddress),
      note: reportAddress
        ? `Tells receivers what to do with mail that fails SPF and DKIM. rua= sends their daily aggregate reports to InboxPulse: they show under Show DMARC reports once ${domain} is verified. Already receiving reports elsewhere? Keep that address and add mailto:${reportAddress} after a comma.`
        : 'Tells receivers what to do with mail that fails SPF and DKIM.',
    },
  ];
}
