import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { createResolver } from '../platform/dns/resolver';
import { analyseMessage, type AnalyseDeps } from '../engine/message-analysis/analyse-message';
import { noSpamd, startSpamd, type TestSpamd } from '../test/spamd';
import { ANALYSER_INBOX_MIN_SCORE, analyserPlacement } from './process-test-message';

/*
 * The calibration corpus (spam-content/corpus: ham and spam written for the tests) through the
 * analysis without and with Debian's real spamd (`--local`: its rules on headers, body and URIs;
 * no Bayes, no network lists, so it misses spam those would catch). Adding SpamAssassin must move
 * every message's score the way SpamAssassin's verdict points, and never put in the inbox what it
 * calls spam (ADR 019).
 */

const corpus = new URL('../engine/message-analysis/checks/spam-content/corpus/', import.meta.url);
const messages = (['ham', 'spam'] as const).flatMap((label) =>
  readdirSync(new URL(`${label}/`, corpus))
    .filter((file) => file.endsWith('.eml'))
    .map((file) => ({ label, file, raw: readFileSync(new URL(`${label}/${file}`, corpus)) })),
);

describe.skipIf(noSpamd)('the corpus with and without SpamAssassin', () => {
  let spamd: TestSpamd;
  const scored: { label: 'ham' | 'spam'; file: string; alone: InboxTestReport; withSpamd: InboxTestReport }[] = [];

  beforeAll(async () => {
    spamd = await startSpamd();
    // Simulated messages: no envelope, so nothing is looked up in DNS.
    const dns = createResolver({ servers: ['127.0.0.1:1'], timeoutMs: 200, tries: 1, maxCacheSeconds: 0 });
    const deps = (SPAMD_HOST?: string): AnalyseDeps => ({
      dns,
      env: { INBOUND_DOMAIN: 'inbox.localhost', SPAMD_HOST },
    });
    // Two at a time: the test spamd runs two children.
    for (let i = 0; i < messages.length; i += 2) {
      const pair = messages.slice(i, i + 2);
      const reports = await Promise.all(
        pair.map(({ raw }) =>
          Promise.all([analyseMessage(raw, null, deps()), analyseMessage(raw, null, deps(spamd.host))]),
        ),
      );
      pair.forEach(({ label, file }, j) =>
        scored.push({ label, file, alone: reports[j][0], withSpamd: reports[j][1] }),
      );
    }
  }, 120_000);
  afterAll(() => spamd?.stop());

  it('has the corpus the engine is calibrated on: at least 20 messages of each kind, every one checked by spamd', () => {
    expect(scored.filter((m) => m.label === 'ham').length).toBeGreaterThanOrEqual(20);
    expect(scored.filter((m) => m.label === 'spam').length).toBeGreaterThanOrEqual(20);
    expect(scored.filter((m) => m.withSpamd.spamAssassin?.error !== null).map((m) => m.file)).toEqual([]);
  });

  it("moves every score the way SpamAssassin's verdict points, and only then", () => {
    for (const { file, alone, withSpamd } of scored) {
      const { score: saScore, threshold, isSpam } = withSpamd.spamAssassin!;
      const close = !isSpam && saScore! >= threshold! - 1;
      const why = `${file}: ${alone.score} alone, ${withSpamd.score} with SpamAssassin at ${saScore}/${threshold}`;
      if (isSpam || close) expect(withSpamd.score, why).toBeLessThan(Math.max(alone.score, 0.1));
      else expect(withSpamd.score, why).toBe(alone.score);
    }
  });

  it('never places in the inbox what SpamAssassin calls spam, and our rules alone already say spam for each of those', () => {
    const calledSpam = scored.filter((m) => m.withSpamd.spamAssassin!.isSpam);
    expect(calledSpam.length).toBeGreaterThan(0);
    for (const { file, alone, withSpamd } of calledSpam) {
      expect(analyserPlacement(withSpamd).placement, file).toBe('spam');
      expect(alone.score, file).toBeLessThan(ANALYSER_INBOX_MIN_SCORE);
    }
  });

  it('keeps every legitimate message in the inbox with SpamAssassin too', () => {
    for (const { file, withSpamd } of scored.filter((m) => m.label === 'ham')) {
      expect(
        analyserPlacement(withSpamd).placement,
        `${file}: ${withSpamd.score}, SpamAssassin ${withSpamd.spamAssassin!.score}`,
      ).toBe('inbox');
    }
  });
});
