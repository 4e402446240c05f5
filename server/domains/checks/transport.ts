import type { z } from 'zod';
import type { DomainChecks, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { parseTags } from './tag-list';
import { error, info, statusOf, warning, withTag } from './finding';

type Checks = z.infer<typeof DomainChecks>;

export async function checkMx(dns: DnsResolver, domain: string): Promise<Checks['mx']> {
  const hosts = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
  if (hosts.length === 0) {
    return {
      status: 'missing',
      record: null,
      hosts: [],
      findings: [warning('No MX record: this domain cannot receive mail, including replies and bounces.', 'Publish MX records for your mailbox provider.')],
    };
  }
  const findings: Finding[] = [];
  if (hosts.length === 1 && (hosts[0].exchange === '' || hosts[0].exchange === '.'))
    findings.push(info('Null MX: the domain states it receives no mail (RFC 7505).'));
  return { status: statusOf(findings), record: hosts.map((h) => `${h.priority} ${h.exchange}`).join(', '), hosts, findings };
}

export async function checkTlsRpt(dns: DnsResolver, domain: string): Promise<Checks['tlsRpt']> {
  const [record] = withTag(await dns.txt(`_smtp._tls.${domain}`), 'v=TLSRPTv1');
  if (!record)
    return {
      status: 'missing',
      record: null,
      findings: [
        info(
          'No TLS-RPT: you get no reports of TLS failures delivering to you.',
          `Publish "v=TLSRPTv1; rua=mailto:tls-reports@${domain}" at _smtp._tls.${domain}.`,
        ),
      ],
    };
  const findings = parseTags(record).rua ? [] : [error('The TLS-RPT record has no rua=.', 'Add rua=mailto:address.')];
  return { status: statusOf(findings), record, findings };
}

export async function checkBimi(dns: DnsResolver, domain: string, dmarcPolicy: string | undefined): Promise<Checks['bimi']> {
  const [record] = withTag(await dns.txt(`default._bimi.${domain}`), 'v=BIMI1');
  if (!record)
    return {
      status: 'missing',
      record: null,
      findings: [info('No BIMI record: mailbox providers show no brand logo.', `Publish "v=BIMI1; l=https://.../logo.svg" at default._bimi.${domain}.`)],
    };
  const findings: Finding[] = [];
  if (!parseTags(record).l) findings.push(error('The BIMI record has no logo URL (l=).', 'Add l=https://… pointing to an SVG Tiny PS logo.'));
  if (dmarcPolicy !== 'quarantine' && dmarcPolicy !== 'reject')
    findings.push(warning('BIMI logos are shown only with a DMARC policy of quarantine or reject.', 'Move DMARC to p=quarantine or p=reject.'));
  return { status: statusOf(findings), record, findings };
}
