import type { InboxTestReport } from '@contracts/inbox-tests';
import { formatCount, formatPercent } from '../../../lib/format';
import { AnalysisSection, Code, Facts, yesNo } from './analysis-parts';

type Content = InboxTestReport['content'];

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${formatCount(bytes)} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

function parts(content: Content): string {
  if (content.hasText && content.hasHtml) return 'Plain text and HTML';
  if (content.hasHtml) return 'HTML only';
  if (content.hasText) return 'Plain text only';
  return 'No body';
}

/** Facts about the message itself: size, parts, links, unsubscribe headers. */
export function ContentFacts({ content }: { content: Content }) {
  return (
    <AnalysisSection title="Content" testId="analysis-content">
      <Facts
        items={[
          ['Subject', content.subject ?? 'None'],
          ['Size', formatSize(content.sizeBytes)],
          ['Parts', parts(content)],
          [
            'Text to HTML ratio',
            content.textToHtmlRatio === null ? 'N/A' : formatPercent(content.textToHtmlRatio * 100, 0),
          ],
          ['Images', formatCount(content.imageCount)],
          ['Links', formatCount(content.linkCount)],
          ['Link domains', content.linkDomains.length > 0 ? content.linkDomains.join(', ') : 'None'],
          ['URL shorteners', content.shorteners.length > 0 ? content.shorteners.join(', ') : 'None'],
          ['List-Unsubscribe', content.listUnsubscribe ? <Code key="lu">{content.listUnsubscribe}</Code> : 'Missing'],
          ['One-click unsubscribe', yesNo(content.oneClickUnsubscribe)],
          ['Date header', yesNo(content.hasDate)],
          ['Message-ID header', yesNo(content.hasMessageId)],
        ]}
      />
    </AnalysisSection>
  );
}
