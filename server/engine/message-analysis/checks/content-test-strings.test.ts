import { describe, expect, it } from 'vitest';
import { analyzeContent } from './content';
import { scoreFindings } from './score';
import { corpusMessage } from './spam-content/corpus.test-support';

const ids = (findings: { id: string; deduction: number }[]) => findings.filter((f) => f.deduction > 0).map((f) => f.id);

describe('spam-filter test strings', () => {
  // SpamAssassin's own sample, verbatim: apache/spamassassin sample-spam.txt.
  it("scores SpamAssassin's GTUBE sample 0, whatever else is right", async () => {
    const a = await analyzeContent(corpusMessage('spam/gtube-sample-spam.eml'));
    const gtube = a.findings.find((f) => f.id === 'content.gtube');
    expect(gtube).toMatchObject({ severity: 'error', deduction: 10 });
    expect(gtube?.detail).toContain('XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X');
    expect(gtube?.fix).toMatch(/Remove the test string/);
    expect(scoreFindings(a.findings).score).toBe(0);
  });

  // SpamAssassin's look-alike that must not match, verbatim: apache/spamassassin t/data/nice/not_gtube.eml.
  it('spares a message that only talks about the GTUBE', async () => {
    const a = await analyzeContent(corpusMessage('ham/not-gtube.eml'));
    expect(a.findings.map((f) => f.id)).not.toContain('content.gtube');
    expect(ids(a.findings)).toEqual(['content.no-list-unsubscribe']);
  });

  it('finds the string in a base64-encoded HTML part, as a body rule reads it decoded', async () => {
    const html = Buffer.from('<p>XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X</p>').toString(
      'base64',
    );
    const raw = Buffer.from(
      `From: Ops <ops@brand.example>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Filter check\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <f1@brand.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${html}\r\n`,
    );
    expect(raw.toString()).not.toContain('GTUBE-STANDARD');
    const a = await analyzeContent(raw);
    expect(ids(a.findings)).toContain('content.gtube');
  });

  // The variants rspamd lists for its other actions (https://rspamd.com/doc/gtube_patterns.html), off by default there.
  it("reports rspamd's non-reject variants without charging them", async () => {
    const raw = Buffer.from(
      'From: Ops <ops@brand.example>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Header test\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <h1@brand.example>\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nYJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X\r\n',
    );
    const a = await analyzeContent(raw);
    expect(a.findings.find((f) => f.id === 'content.filter-test-string')).toMatchObject({
      severity: 'info',
      deduction: 0,
    });
    expect(a.findings.find((f) => f.id === 'content.filter-test-string')?.detail).toContain('"add header"');
    expect(a.findings.map((f) => f.id)).not.toContain('content.gtube');
  });
});
