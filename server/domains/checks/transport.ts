import type { z } from 'zod';
import type { DomainChecks, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { fieldValue, findRecord, lookupRecords, readFields, type RecordKind } from './versioned-record';
import { error, info, statusOf, warning } from './finding';

type Checks = z.infer<typeof DomainChecks>;

export async function checkMx(dns: DnsResolver, domain: string): Promise<Checks['mx']> {
  const hosts = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
  if (hosts.length === 0) {
    return {
      status: 'missing',
      record: null,
      hosts: [],
      findings: [
        warning(
          'No MX record: this domain cannot receive mail, including replies and bounces.',
          'Publish MX records for your mailbox provider.',
        ),
      ],
    };
  }
  const findings: Finding[] = [];
  if (hosts.length === 1 && (hosts[0].exchange === '' || hosts[0].exchange === '.'))
    findings.push(info('Null MX: the domain states it receives no mail (RFC 7505).'));
  return {
    status: statusOf(findings),
    record: hosts.map((h) => `${h.priority} ${h.exchange}`).join(', '),
    hosts,
    findings,
  };
}

const TLS_RPT: RecordKind = {
  name: 'TLS-RPT',
  version: 'v=TLSRPTv1',
  readers: 'senders',
  lost: 'no TLS report reaches you',
};

/** Why a rua= URI gets no report, and its fix; null for a usable one (RFC 8460 3: "mailto" and "https" are the schemes defined). */
function ruaProblem(uri: string): { problem: string; fix: string } | null {
  const fix = 'Use rua=mailto:address or rua=https://URL.';
  // tlsrpt-uri: "!" MUST be encoded; "!10m" is the size suffix of DMARC's rua=, which TLS-RPT does not have.
  if (uri.includes('!'))
    return {
      problem: 'holds an unencoded "!": TLS-RPT takes no size limit, that is DMARC\'s syntax',
      fix: `Write rua=${uri.split('!')[0]}.`,
    };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1].toLowerCase();
  if (scheme === 'mailto')
    return /^mailto:[^@\s]+@[^@\s]+$/i.test(uri) ? null : { problem: 'has no e-mail address', fix };
  if (scheme === 'https') return URL.canParse(uri) ? null : { problem: 'is not a valid https: URL', fix };
  return { problem: 'is not a mailto: or https: URI, the only kinds TLS-RPT reports are sent to', fix };
}

/** TLS-RPT (RFC 8460 3): one v=TLSRPTv1 record at _smtp._tls.<domain>, with rua= naming where reports go. */
export async function checkTlsRpt(dns: DnsResolver, domain: string): Promise<Checks['tlsRpt']> {
  const name = `_smtp._tls.${domain}`;
  const example = `v=TLSRPTv1; rua=mailto:tls-reports@${domain}`;
  const txt = await lookupRecords(dns, name, domain, TLS_RPT);
  if (!Array.isArray(txt)) return { status: 'invalid', record: null, findings: [txt] };
  const { record, findings } = findRecord(txt, name, TLS_RPT);
  if (!record)
    return {
      status: 'missing',
      record: null,
      findings: [
        info('No TLS-RPT: you get no reports of TLS failures delivering to you.', `Publish "${example}" at ${name}.`),
      ],
    };
  const { fields, problems } = readFields(record, TLS_RPT, ['rua']);
  findings.push(...problems);
  const rua = fieldValue(fields, 'rua');
  if (rua === undefined)
    findings.push(
      error(
        'The TLS-RPT record has no rua=, so senders have nowhere to send reports.',
        `Add rua=mailto:tls-reports@${domain}.`,
      ),
    );
  else {
    // tlsrpt-rua: URIs separated by "," with optional white space around it.
    const uris = rua.split(/[ \t]*,[ \t]*/);
    const unusable = uris.flatMap((uri) => {
      const problem = ruaProblem(uri);
      return problem ? [{ uri, ...problem }] : [];
    });
    // A URI that gets no report is an error only when no other address is left to receive them.
    const lostAll = unusable.length === uris.length;
    for (const { uri, problem, fix } of unusable) {
      const message = `rua= "${uri}" ${problem}${lostAll ? ', so no report reaches you.' : '; reports still go to your other rua= addresses.'}`;
      findings.push(lostAll ? error(message, fix) : warning(message, fix));
    }
  }
  return { status: statusOf(findings), record, findings };
}
