import { describe, expect, it } from 'vitest';
import { analyzeContent } from './content';
import { scoreFindings } from './score';
import { corpusMessage } from './spam-content/corpus.test-support';

const BLAST = corpusMessage('spam/bulk-blast-no-unsubscribe.eml').toString();

describe('a bulk layout without a way to unsubscribe', () => {
  it('places the 25-image blast with no unsubscribe in spam, and says what is missing', async () => {
    const a = await analyzeContent(Buffer.from(BLAST));
    const finding = a.findings.find((f) => f.id === 'content.bulk-without-unsubscribe');
    expect(finding).toMatchObject({ severity: 'error', deduction: 3.5 });
    expect(finding?.detail).toMatch(
      /^50 links and 25 image\(s\), but neither a List-Unsubscribe header nor an unsubscribe link in the body/,
    );
    expect(scoreFindings(a.findings).score).toBeLessThan(5);
  });

  it('spares the same layout with an unsubscribe link in the footer, or with List-Unsubscribe', async () => {
    const withLink = BLAST.replace(
      'BrightMart Deals, 12 Harbour Road, Leith',
      'BrightMart Deals, 12 Harbour Road, Leith &middot; <a href="https://brightmart-deals.example/u/81">Unsubscribe</a>',
    );
    const withHeader = BLAST.replace(
      'MIME-Version: 1.0',
      'List-Unsubscribe: <https://brightmart-deals.example/u/81>\r\nMIME-Version: 1.0',
    );
    for (const message of [withLink, withHeader]) {
      const a = await analyzeContent(Buffer.from(message));
      expect(a.findings.map((f) => f.id)).not.toContain('content.bulk-without-unsubscribe');
      expect(scoreFindings(a.findings).score).toBeGreaterThanOrEqual(5);
    }
  });

  it('leaves a transactional message with a few links and no List-Unsubscribe to the ordinary finding', async () => {
    const a = await analyzeContent(corpusMessage('ham/order-receipt.eml'));
    expect(a.findings.map((f) => f.id)).toContain('content.no-list-unsubscribe');
    expect(a.findings.map((f) => f.id)).not.toContain('content.bulk-without-unsubscribe');
  });
});
