import type { ComplianceEvidence } from '@contracts/compliance';
import type { ComplianceEvidenceData, TestMessageEvidence } from '../../insights/compliance-evidence';
import { latestTest, met, NO_TEST_FIX, NO_TEST_MESSAGE, notMet, testEvidence, unknown, type Judge } from './judgement';

/*
 * One-click unsubscribe (RFC 8058), as Gmail and Yahoo ask it (ADR 055): List-Unsubscribe with an https URI,
 * List-Unsubscribe-Post: List-Unsubscribe=One-Click, and both fields covered by a DKIM signature that passes
 * (RFC 8058 section 4; without it Gmail shows no unsubscribe button). When the live one-click test tried the
 * domain's link, its outcome counts too. Yahoo's page differs on one point: "The Post (RFC 8058) method is highly
 * recommended. The mail-to: method is acceptable", so for Yahoo a mailto: URI meets the rule the POST does not.
 */

const ONE_CLICK = 'List-Unsubscribe=One-Click';
const FIX =
  'Add "List-Unsubscribe: <https://…>" and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", list both in the DKIM signature\'s h= tag, answer the POST with 200 at once, and keep a visible unsubscribe link in the body.';

/** Which passing signatures cover both fields; null when the report was stored before signed fields were kept. */
function coveringSignatures(test: TestMessageEvidence): string[] | null {
  const signatures = test.report.authentication?.dkim ?? [];
  const signed = test.facts.authentication?.dkim;
  if (!signed || signed.length !== signatures.length || signed.some((s) => !s.signedHeaders)) return null;
  return signatures
    .filter((sig, i) => {
      const fields = signed[i].signedHeaders!;
      return sig.result === 'pass' && fields.includes('list-unsubscribe') && fields.includes('list-unsubscribe-post');
    })
    .map((sig) => `d=${sig.domain}`);
}

/**
 * The latest live RFC 8058 POST of the domain's one-click link (the inbox test's own, on the newest message where it
 * ran): a link that failed when tried is evidence the rule is not met.
 */
function liveTest(data: ComplianceEvidenceData): { ok: boolean; evidence: ComplianceEvidence } | null {
  for (const test of data.testMessages) {
    const live = test.report.oneClickUnsubscribe;
    if (!live || live.outcome === 'turned_off') continue;
    if (live.outcome === 'not_offered') return null;
    return {
      ok: live.outcome === 'accepted',
      evidence: { ...testEvidence(test, `one-click POST: ${live.summary}`), at: live.testedAt ?? test.receivedAt },
    };
  }
  return null;
}

/** What the body offers the reader; reports analysed before the link was looked for cannot say. */
function bodyLinkWords(bodyLink: boolean | undefined): string {
  if (bodyLink === undefined)
    return 'analysed before the body was checked for an unsubscribe link: check the message shows one.';
  return bodyLink ? 'the body shows an unsubscribe link.' : 'no visible unsubscribe link in the body.';
}

export const judgeOneClickUnsubscribe: Judge = (data, provider) => {
  const test = latestTest(data);
  if (!test) return unknown([NO_TEST_MESSAGE], NO_TEST_FIX);
  const { listUnsubscribe, listUnsubscribePost } = test.report.content;
  const https = listUnsubscribe !== null && /<\s*https:/i.test(listUnsubscribe);
  const yahooMailto = provider === 'yahoo' && listUnsubscribe !== null && /<\s*mailto:/i.test(listUnsubscribe);
  const post = listUnsubscribePost?.trim() === ONE_CLICK;
  const covering = coveringSignatures(test);
  const live = liveTest(data);
  const problems = [
    ...(listUnsubscribe === null ? ['no List-Unsubscribe'] : https ? [] : ['List-Unsubscribe has no https: URI']),
    ...(post
      ? []
      : [
          listUnsubscribePost === null
            ? 'no List-Unsubscribe-Post'
            : `List-Unsubscribe-Post is "${listUnsubscribePost}"`,
        ]),
    // Said of fields that are there: a missing field is said above, and no signature can cover it.
    ...(covering !== null && covering.length === 0 && listUnsubscribe !== null && listUnsubscribePost !== null
      ? ['no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post']
      : []),
  ];
  const mailtoWords = yahooMailto
    ? '; its mailto: URI is one Yahoo accepts (Yahoo highly recommends the RFC 8058 POST)'
    : '';
  const evidence = [
    testEvidence(
      test,
      problems.length > 0
        ? `${problems.join('; ')}${mailtoWords}.`
        : `List-Unsubscribe with an https: URI and ${ONE_CLICK}${covering ? `, both signed by ${covering.join(', ')}` : ''}.`,
    ),
    ...(live ? [live.evidence] : []),
    testEvidence(test, bodyLinkWords(test.report.content.bodyUnsubscribeLink)),
  ];
  if (live?.ok === false || test.report.content.bodyUnsubscribeLink === false) return notMet(evidence, FIX);
  if (yahooMailto && (problems.length > 0 || covering === null)) return met(evidence);
  if (problems.length > 0) return notMet(evidence, FIX);
  if (covering === null)
    return unknown(
      [testEvidence(test, 'analysed before the DKIM-signed fields were kept: coverage cannot be told.'), ...evidence],
      NO_TEST_FIX,
    );
  return met(evidence);
};
