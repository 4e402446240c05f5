import type { HtmlScan } from './content-html';
import { CONTENT_LIMITS, problem } from './content-rules';
import type { AnalysisFinding } from './finding';
import { isUnsubscribeLink } from './spam-content/link-signals';

/**
 * A bulk layout (a catalogue of links) with no way out: no List-Unsubscribe header and no
 * unsubscribe link in the body. Gmail and Yahoo require an unsubscribe from bulk senders, and a
 * reader who cannot leave the list presses "Report spam", which is what sends the next one to spam.
 * A personal or transactional message has no such layout, so its missing header stays the
 * ordinary content.no-list-unsubscribe.
 */
export function checkBulkWithoutUnsubscribe(
  scan: HtmlScan | null,
  linkCount: number,
  listUnsubscribe: string | null,
): AnalysisFinding[] {
  if (scan === null || linkCount < CONTENT_LIMITS.bulkMinLinks || listUnsubscribe !== null) return [];
  if (scan.anchors.some(isUnsubscribeLink)) return [];
  return [
    problem(
      'content.bulk-without-unsubscribe',
      'A bulk mailing with no way to unsubscribe',
      `${linkCount} links and ${scan.images.length} image(s), but neither a List-Unsubscribe header nor an unsubscribe link in the body: readers can only press "Report spam", and Gmail and Yahoo require bulk senders to offer an unsubscribe.`,
      'Add "List-Unsubscribe" with an https link and "List-Unsubscribe-Post: List-Unsubscribe=One-Click" (signed with DKIM), and a visible "Unsubscribe" link in the footer that works in one step.',
    ),
  ];
}
