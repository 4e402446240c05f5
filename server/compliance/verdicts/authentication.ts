import type { ComplianceEvidence } from '@contracts/compliance';
import type { ComplianceEvidenceData, TestMessageEvidence } from '../../insights/compliance-evidence';
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
  type Judgement,
} from './judgement';

/*
 * SPF, DKIM and DMARC (ADR 055). A test message shows what a receiver concluded, so when there is one it decides;
 * without one the DNS check shows whether the records are set up, which is what "set up" rules ask and no more.
 */

const SPF_FIX =
  'Publish an SPF record that lists every service sending as the domain, and send with a Return-Path on it.';
const DKIM_FIX = 'Turn on DKIM signing with the domain (d=) at every sending service and publish its key.';

interface Passes {
  spf: boolean;
  dkim: boolean;
  evidence: ComplianceEvidence;
}

function testPasses(test: TestMessageEvidence): Passes {
  const auth = test.report.authentication!;
  const passing = auth.dkim.filter((d) => d.result === 'pass');
  const spf = auth.spf.result === 'pass';
  const dkimText =
    passing.length > 0
      ? `DKIM pass (d=${passing.map((d) => d.domain).join(', d=')})`
      : auth.dkim.length > 0
        ? `DKIM ${auth.dkim.map((d) => `${d.result} (d=${d.domain})`).join(', ')}`
        : 'no DKIM signature';
  return {
    spf,
    dkim: passing.length > 0,
    evidence: testEvidence(
      test,
      `SPF ${auth.spf.result}${auth.spf.domain ? ` (${auth.spf.domain})` : ''}, ${dkimText}.`,
    ),
  };
}

function dnsPasses(data: ComplianceEvidenceData): Passes | undefined {
  const checks = data.checks;
  if (!checks) return undefined;
  const dkimKeys = checks.dkim.selectors.filter((s) => s.status === 'valid').map((s) => s.selector);
  return {
    spf: checks.spf.status === 'valid',
    dkim: checks.dkim.status === 'valid',
    evidence: dnsEvidence(
      data,
      `SPF record ${checks.spf.status}; DKIM ${dkimKeys.length > 0 ? `key found at ${dkimKeys.join(', ')}` : checks.dkim.status}.`,
    ),
  };
}

function judgeAuthentication(data: ComplianceEvidenceData, both: boolean): Judgement {
  const test = latestTest(data);
  const dns = dnsPasses(data);
  const passes = test ? testPasses(test) : dns;
  if (!passes) return unknown([NO_TEST_MESSAGE], `Run the domain's DNS check, then ${NO_TEST_FIX.toLowerCase()}`);
  const evidence = [passes.evidence, ...(test && dns ? [dns.evidence] : [])];
  const ok = both ? passes.spf && passes.dkim : passes.spf || passes.dkim;
  if (ok) return met(evidence);
  const fixes = [...(passes.spf ? [] : [SPF_FIX]), ...(passes.dkim ? [] : [DKIM_FIX])];
  return notMet(evidence, both ? fixes.join(' ') : `${SPF_FIX} Or: ${DKIM_FIX}`);
}

export const judgeSpfOrDkim: Judge = (data) => judgeAuthentication(data, false);
export const judgeSpfAndDkim: Judge = (data) => judgeAuthentication(data, true);

const MIN_RSA_BITS = 1024;
const KEY_FIX = 'Publish a 2048-bit RSA key (or add an Ed25519 key beside it) and sign with it; retire the short key.';

export const judgeDkimKeyLength: Judge = (data) => {
  const keys: { where: string; type: string | null; bits: number | null; evidence: ComplianceEvidence }[] = [];
  const test = latestTest(data);
  for (const d of test?.report.authentication?.dkim ?? [])
    if (d.result === 'pass')
      keys.push({
        where: `s=${d.selector} d=${d.domain}`,
        type: d.algorithm?.split('-')[0] ?? null,
        bits: d.keyBits,
        evidence: testEvidence(
          test!,
          `signed with ${d.algorithm ?? 'an unknown algorithm'} by s=${d.selector}, d=${d.domain}${d.keyBits ? `, a ${d.keyBits}-bit key` : ''}.`,
        ),
      });
  for (const s of data.checks?.dkim.selectors ?? [])
    if (s.status !== 'missing')
      keys.push({
        where: `${s.selector}._domainkey`,
        type: s.keyType,
        bits: s.keyBits,
        evidence: dnsEvidence(
          data,
          `key at ${s.selector}._domainkey: ${s.keyType ?? 'unknown type'}${s.keyBits ? `, ${s.keyBits} bits` : ''}.`,
        ),
      });
  if (keys.length === 0)
    return data.checks
      ? notMet([dnsEvidence(data, 'no DKIM key found.')], DKIM_FIX)
      : unknown([NO_TEST_MESSAGE], NO_TEST_FIX);
  const short = keys.filter((k) => k.type === 'rsa' && k.bits !== null && k.bits < MIN_RSA_BITS);
  if (short.length > 0)
    return notMet(
      short.map((k) => k.evidence),
      KEY_FIX,
    );
  // An RSA key whose length was not read is not counted either way.
  const judged = keys.filter((k) => k.type !== 'rsa' || k.bits !== null);
  if (judged.length === 0)
    return unknown(
      keys.map((k) => k.evidence),
      'Re-run the DNS check: the key could not be read.',
    );
  return met(judged.map((k) => k.evidence));
};

const DMARC_FIX =
  'Publish a DMARC record at _dmarc.<domain>, for a start "v=DMARC1; p=none; rua=mailto:<your report address>".';

export const judgeDmarcPublished: Judge = (data) => {
  const dmarc = data.checks?.dmarc;
  if (dmarc) {
    if (dmarc.failedLookup && !dmarc.lastFoundAt)
      return unknown(
        [dnsEvidence(data, `the lookup of ${dmarc.failedLookup.name} failed (${dmarc.failedLookup.code}).`)],
        'Re-run the DNS check.',
      );
    const policy = dmarc.tags.p;
    if (dmarc.status === 'valid')
      return met([
        dnsEvidence(
          data,
          `DMARC record found at ${dmarc.foundAt ?? `_dmarc.${data.domain}`} with p=${policy ?? 'none'}.`,
        ),
      ]);
    return notMet(
      [
        dnsEvidence(
          data,
          dmarc.status === 'missing'
            ? 'no DMARC record found.'
            : `the DMARC record is invalid: ${dmarc.findings[0]?.message ?? dmarc.record}`,
        ),
      ],
      DMARC_FIX,
    );
  }
  const test = latestTest(data);
  const record = test?.report.authentication?.dmarc?.record;
  if (!test) return unknown([NO_TEST_MESSAGE], `Run the domain's DNS check.`);
  return record
    ? met([testEvidence(test, `DMARC record ${record}.`)])
    : notMet([testEvidence(test, 'no DMARC record applies to the From domain.')], DMARC_FIX);
};

export const judgeDmarcAligned: Judge = (data) => {
  const test = latestTest(data);
  if (!test) return unknown([NO_TEST_MESSAGE], NO_TEST_FIX);
  const auth = test.report.authentication!;
  if (!auth.dmarc)
    return notMet(
      [testEvidence(test, `the From field names ${auth.headerFrom.length} addresses, so no single domain can align.`)],
      'Send with exactly one From address on the domain.',
    );
  const { spfAligned, dkimAligned, domain } = auth.dmarc;
  const text = `From domain ${domain}: SPF ${spfAligned ? 'aligned' : 'not aligned'}, DKIM ${dkimAligned ? 'aligned' : 'not aligned'} (DMARC ${auth.dmarc.result}).`;
  if (spfAligned || dkimAligned) return met([testEvidence(test, text)]);
  return notMet(
    [testEvidence(test, text)],
    `Sign with DKIM d=${domain} (or a parent of it), or send with a Return-Path on ${domain} that SPF authorizes.`,
  );
};
