import type { z } from 'zod';
import type { DomainChecks, Finding } from '../../../contracts/domains';
import type { DnsResolver } from '../resolver';
import { parseTags } from './dkim';
import { error, info, statusOf, warning, withTag } from './finding';

type Checks = z.infer<typeof DomainChecks>;

export async function checkMx(dns: DnsResolver, domain: string): Promise<Checks['mx']> {
  const hosts = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
  if (hosts.length === 0) {
    return { status: 'missing', record: null, hosts: [], findings: [warning('No MX record: this domain cannot receive mail, including replies and bounces.', 'Publish MX records for your mailbox provider.')] };
  }
  const findings: Finding[] = [];
  if (hosts.length === 1 && (hosts[0].exchange === '' || hosts[0].exchange === '.')) findings.push(info('Null MX: the domain states it receives no mail (RFC 7505).'));
  return { status: statusOf(findings), record: hosts.map((h) => `${h.priority} ${h.exchange}`).join(', '), hosts, findings };
}

/** MTA-STS: the _mta-sts TXT record and the policy file it announces, fetched over HTTPS. */
export async function checkMtaSts(dns: DnsResolver, domain: string): Promise<Checks['mtaSts']> {
  const [record] = withTag(await dns.txt(`_mta-sts.${domain}`), 'v=STSv1');
  if (!record) return { status: 'missing', record: null, policy: null, findings: [info('No MTA-STS: senders may deliver to you without TLS.', `Publish _mta-sts.${domain} and a policy at https://mta-sts.${domain}/.well-known/mta-sts.txt.`)] };
  const findings: Finding[] = [];
  if (!parseTags(record).id) findings.push(error('The MTA-STS record has no id=.', 'Add id=<a value you change with every policy change>.'));
  let policy: string | null = null;
  try {
    const res = await fetch(`https://mta-sts.${domain}/.well-known/mta-sts.txt`, { signal: AbortSignal.timeout(5000), redirect: 'error' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    policy = (await res.text()).slice(0, 10_000);
    const mode = /^mode:\s*(\w+)/m.exec(policy)?.[1];
    if (!mode) findings.push(error('The MTA-STS policy has no mode.', 'Add "mode: enforce" (or testing).'));
    else if (mode === 'testing') findings.push(info('MTA-STS is in testing mode: failures are reported, not enforced.', 'Switch to mode: enforce once TLS reports are clean.'));
  } catch (err) {
    findings.push(error(`The MTA-STS policy could not be fetched: ${(err as Error).message}.`, `Serve it at https://mta-sts.${domain}/.well-known/mta-sts.txt with a valid certificate.`));
  }
  return { status: statusOf(findings), record, policy, findings };
}

export async function checkTlsRpt(dns: DnsResolver, domain: string): Promise<Checks['tlsRpt']> {
  const [record] = withTag(await dns.txt(`_smtp._tls.${domain}`), 'v=TLSRPTv1');
  if (!record) return { status: 'missing', record: null, findings: [info('No TLS-RPT: you get no reports of TLS failures delivering to you.', `Publish "v=TLSRPTv1; rua=mailto:tls-reports@${domain}" at _smtp._tls.${domain}.`)] };
  const findings = parseTags(record).rua ? [] : [error('The TLS-RPT record has no rua=.', 'Add rua=mailto:address.')];
  return { status: statusOf(findings), record, findings };
}

export async function checkBimi(dns: DnsResolver, domain: string, dmarcPolicy: string | undefined): Promise<Checks['bimi']> {
  const [record] = withTag(await dns.txt(`default._bimi.${domain}`), 'v=BIMI1');
  if (!record) return { status: 'missing', record: null, findings: [info('No BIMI record: mailbox providers show no brand logo.', `Publish "v=BIMI1; l=https://.../logo.svg" at default._bimi.${domain}.`)] };
  const findings: Finding[] = [];
  if (!parseTags(record).l) findings.push(error('The BIMI record has no logo URL (l=).', 'Add l=https://… pointing to an SVG Tiny PS logo.'));
  if (dmarcPolicy !== 'quarantine' && dmarcPolicy !== 'reject') findings.push(warning('BIMI logos are shown only with a DMARC policy of quarantine or reject.', 'Move DMARC to p=quarantine or p=reject.'));
  return { status: statusOf(findings), record, findings };
}
