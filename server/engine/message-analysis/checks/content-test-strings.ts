import { problem } from './content-rules';
import type { AnalysisFinding } from './finding';

/**
 * GTUBE, the Generic Test for Unsolicited Bulk Email, as SpamAssassin's rule GTUBE matches it
 * (apache/spamassassin rules/20_body_tests.cf; score 1000 in rules/50_scores.cf). rspamd reads the
 * same string as "reject" (https://rspamd.com/doc/gtube_patterns.html).
 */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

/**
 * rspamd's siblings of GTUBE for its other actions (https://rspamd.com/doc/gtube_patterns.html):
 * off by default there, since they let a sender choose the action, so a message carrying one is a
 * filter test that most receivers ignore; reported, not charged.
 */
const RSPAMD_SIBLINGS = [
  { text: 'YJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X', action: 'add header' },
  { text: 'ZJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X', action: 'rewrite subject' },
  { text: 'AJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X', action: 'no action' },
] as const;

const REMOVE_IT =
  'Remove the test string: it exists only to prove that a spam filter works. To test your real message, send it without the string.';

/** Filter test strings in the decoded body parts (a SpamAssassin `body` rule reads them decoded, in text or HTML). */
export function checkFilterTestStrings(bodies: (string | null)[]): AnalysisFinding[] {
  const found = (pattern: string) => bodies.some((body) => body?.includes(pattern));
  if (found(GTUBE)) {
    return [
      problem(
        'content.gtube',
        'The message carries the GTUBE spam test string',
        `It contains "${GTUBE}", the Generic Test for Unsolicited Bulk Email: SpamAssassin scores it 1000 and rspamd rejects it, so every filter that knows it treats the message as spam whatever else it holds.`,
        REMOVE_IT,
      ),
    ];
  }
  const sibling = RSPAMD_SIBLINGS.find((s) => found(s.text));
  if (sibling) {
    return [
      problem(
        'content.filter-test-string',
        'The message carries a spam-filter test string',
        `It contains "${sibling.text}", rspamd's GTUBE variant for the action "${sibling.action}"; rspamd acts on it only where its operator enabled test patterns.`,
        REMOVE_IT,
      ),
    ];
  }
  return [];
}
