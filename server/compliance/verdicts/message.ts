import type { ComplianceEvidence } from '@contracts/compliance';
import type { SendingIpReverseDns } from '@contracts/domains';
import {
  dnsEvidence,
  latestTest,
  met,
  NO_TEST_FIX,
  NO_TEST_MESSAGE,
  notMet,
  testEvidence,
  unknown,
  type Judge,
} from './judgement';

/* What the test message itself shows: its connecting IP, its header fields and its unsubscribe headers (ADR 055). */

/** What an IP's reverse DNS shows, and whether it is forward-confirmed (null: the lookup failed). */
function reverseDnsWords(ip: Pick<SendingIpReverseDns, 'ip' | 'reverseDns' | 'confirmedName' | 'reverseDnsFailed'>): {
  confirmed: boolean | null;
  text: string;
} {
  if (ip.confirmedName)
    return { confirmed: true, text: `${ip.ip} has PTR ${ip.confirmedName}, which resolves back to ${ip.ip}.` };
  if (ip.reverseDnsFailed) return { confirmed: null, text: `the PTR lookup of ${ip.ip} failed.` };
  return {
    confirmed: false,
    text:
      ip.reverseDns.length === 0
        ? `${ip.ip} has no PTR record.`
        : `${ip.ip} has PTR ${ip.reverseDns.join(', ')}, which does not resolve back to ${ip.ip}.`,
  };
}

const SEEN_IN: Record<SendingIpReverseDns['seenIn'], string> = {
  'inbox-test': 'an inbox-test sender',
  'dmarc-reports': 'a DMARC report source passing DMARC',
};

/**
 * Forward-confirmed reverse DNS of the domain's sending IPs: the newest test message's connecting IP, and the own
 * sending IPs the last DNS check looked up (inbox-test senders and DMARC sources that passed DMARC, never spoofers).
 * One IP without it is not met: receivers judge each connection.
 */
export const judgeReverseDns: Judge = (data) => {
  const test = latestTest(data);
  const testIp = test?.report.connectingIp ?? null;
  const judged: { ip: string; confirmed: boolean | null; evidence: ComplianceEvidence }[] = [];
  if (test && testIp) {
    const words = reverseDnsWords(testIp);
    judged.push({ ip: testIp.ip, confirmed: words.confirmed, evidence: testEvidence(test, words.text) });
  }
  for (const sender of data.checks?.sendingIps ?? []) {
    if (sender.ip === testIp?.ip) continue;
    const words = reverseDnsWords(sender);
    const text = `${SEEN_IN[sender.seenIn]}: ${words.text}`;
    judged.push({ ip: sender.ip, confirmed: words.confirmed, evidence: dnsEvidence(data, text) });
  }
  const evidence = judged.map((j) => j.evidence);
  const missing = judged.filter((j) => j.confirmed === false).map((j) => j.ip);
  if (missing.length > 0)
    return notMet(
      evidence,
      `Ask whoever runs ${missing.join(', ')} to set each one's PTR record to a name whose A/AAAA record is that IP.`,
    );
  if (judged.some((j) => j.confirmed)) return met(evidence);
  if (judged.length > 0) return unknown(evidence, 'Check the domain again, or send another inbox test.');
  return unknown(
    [
      test ? testEvidence(test, 'the connecting IP could not be checked.') : NO_TEST_MESSAGE,
      dnsEvidence(data, 'no DMARC report source passed DMARC for the domain in the last 30 days.'),
    ],
    NO_TEST_FIX,
  );
};

const TLS_FIX = 'Turn on STARTTLS at every server and service sending as the domain.';

/** What the latest test message's own SMTP session shows: the TLS its sender used, recorded by the listener. */
function testTls(data: Parameters<Judge>[0]): { used: boolean | null; evidence: ComplianceEvidence } {
  const test = latestTest(data);
  if (!test) return { used: null, evidence: NO_TEST_MESSAGE };
  const tls = test.report.envelope?.tls;
  if (tls === undefined || tls === null)
    return {
      used: null,
      evidence: testEvidence(test, 'it arrived before the TLS of the connection was recorded, or not by SMTP.'),
    };
  if (tls === 'none')
    return { used: false, evidence: testEvidence(test, 'the sending server handed it over without TLS (plain SMTP).') };
  return { used: true, evidence: testEvidence(test, `the sending server handed it over with ${tls}.`) };
}

/**
 * TLS on the connection: the test message's own SMTP session (the listener records the TLS the sender used) and
 * Postmaster Tools' share of the domain's mail Gmail received over TLS. Either one short of TLS is not met.
 */
export const judgeTls: Judge = (data) => {
  const test = testTls(data);
  const day = data.postmaster?.find((d) => d.inboundEncryptionRatio !== null);
  const postmaster: ComplianceEvidence = day
    ? {
        source: 'postmaster',
        text: `Postmaster Tools: ${(day.inboundEncryptionRatio! * 100).toFixed(1)} % of the domain's mail to Gmail arrived over TLS (${day.date}).`,
        at: `${day.date}T00:00:00.000Z`,
      }
    : data.postmaster === null
      ? { source: 'postmaster', text: 'Google Postmaster Tools is not connected for this domain.', at: null }
      : { source: 'postmaster', text: 'Postmaster Tools gave no TLS figure for the last 30 days.', at: null };
  const postmasterAllTls = day ? day.inboundEncryptionRatio! >= 1 : null;
  const evidence = [postmaster, test.evidence];
  if (test.used === false || postmasterAllTls === false) return notMet(evidence, TLS_FIX);
  if (test.used || postmasterAllTls) return met(evidence);
  return unknown(
    evidence,
    'Send an inbox test from the domain, or connect Google Postmaster Tools: each shows whether your mail arrives over TLS.',
  );
};

/** RFC 5322 3.6: fields a message must carry exactly once, and the rest of its single-instance fields at most once. */
const REQUIRED_ONCE = ['date', 'from'];

export const judgeMessageFormat: Judge = (data) => {
  const test = latestTest(data);
  if (!test) return unknown([NO_TEST_MESSAGE], NO_TEST_FIX);
  const auth = test.report.authentication!;
  const counts = test.facts.authentication?.headerFieldCounts;
  const problems: string[] = [];
  if (!test.report.content.hasMessageId) problems.push('no Message-ID');
  if (!test.report.content.hasDate) problems.push('no Date');
  if (auth.headerFrom.length !== 1) problems.push(`${auth.headerFrom.length} From addresses`);
  if (counts) {
    for (const [name, count] of Object.entries(counts)) if (count > 1) problems.push(`${count} ${name} fields`);
    for (const name of REQUIRED_ONCE) if (!counts[name]) problems.push(`no ${name} field`);
  }
  const unique = [...new Set(problems)];
  if (unique.length > 0)
    return notMet(
      [testEvidence(test, `${unique.join(', ')}.`)],
      'Send every message with one Date, one From (one address), one Message-ID, and each RFC 5322 single-instance field at most once.',
    );
  if (!counts)
    return unknown(
      [testEvidence(test, 'analysed before header fields were counted: repeated fields cannot be told.')],
      NO_TEST_FIX,
    );
  return met([testEvidence(test, 'one Date, one From address, one Message-ID; no single-instance field repeated.')]);
};

/** The mailbox providers' own domains: mail From them that they did not send fails their DMARC. */
const PROVIDER_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'aol.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
];

const isProviderDomain = (host: string) => PROVIDER_DOMAINS.some((p) => host === p || host.endsWith(`.${p}`));

export const judgeNoImpersonation: Judge = (data) => {
  if (isProviderDomain(data.domain))
    return notMet(
      [dnsEvidence(data, `${data.domain} is a mailbox provider's own domain.`)],
      'Send bulk mail From your own domain, never From a mailbox provider’s.',
    );
  const test = latestTest(data);
  if (!test) return unknown([NO_TEST_MESSAGE], NO_TEST_FIX);
  const from = test.report.authentication!.headerFrom;
  const spoofed = from.filter((a) => isProviderDomain(a.slice(a.lastIndexOf('@') + 1).toLowerCase()));
  if (spoofed.length > 0)
    return notMet(
      [testEvidence(test, `From names ${spoofed.join(', ')}.`)],
      'Send bulk mail From your own domain, never From a mailbox provider’s.',
    );
  return met([testEvidence(test, `From ${from.join(', ')}: not a mailbox provider's domain.`)]);
};
