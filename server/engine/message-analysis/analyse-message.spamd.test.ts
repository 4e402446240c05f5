import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import { noSpamd, startSpamd, type TestSpamd } from '../../test/spamd';
import { analyseMessage, type AnalyseDeps } from './analyse-message';

/*
 * The analysis against Debian's real spamd (SpamAssassin 4 with the rules the package ships, no
 * network tests). `npm test` skips it where spamd is not installed; CI installs it.
 */

const plainMessage = Buffer.from(
  [
    'From: Brand News <news@brand-mail.com>',
    'To: test-1-abc@inbox.localhost',
    'Subject: Spring collection',
    'Date: Mon, 23 Nov 2026 10:00:00 +0000',
    'Message-ID: <20261123100000.4711@brand-mail.com>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello from the brand. Our spring collection is here.',
    '',
  ].join('\r\n'),
);

const envelopeFrom = (remoteIp: string) => ({
  remoteIp,
  helo: 'mta1.brand-mail.com',
  mailFrom: 'bounce@brand-mail.com',
});
const ruleNames = (report: InboxTestReport) => report.spamAssassin?.rules.map((rule) => rule.name) ?? [];

describe.skipIf(noSpamd)('analyseMessage with a real spamd', () => {
  let spamd: TestSpamd;
  let dns: TestDnsServer;
  let deps: AnalyseDeps;

  beforeAll(async () => {
    [spamd, dns] = await Promise.all([
      startSpamd(),
      startDnsServer({
        '14.215.184.93.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
        'mta1.brand-mail.com': { A: ['93.184.215.14'] },
      }),
    ]);
    const resolver = loopbackResolver(dns);
    deps = { dns: resolver, env: { INBOUND_DOMAIN: 'inbox.localhost', SPAMD_HOST: spamd.host } };
  }, 60_000);
  afterAll(async () => {
    await spamd?.stop();
    dns?.close();
  });

  it('hands spamd the message with our Received field, so its rules on the relay and its reverse DNS fire', async () => {
    const noReverseDns = await analyseMessage(plainMessage, envelopeFrom('93.184.215.15'), deps);
    expect(noReverseDns.spamAssassin?.error).toBeNull();
    expect(ruleNames(noReverseDns)).toContain('RDNS_NONE');
    expect(ruleNames(noReverseDns)).not.toContain('NO_RELAYS');

    const confirmedReverseDns = await analyseMessage(plainMessage, envelopeFrom('93.184.215.14'), deps);
    expect(ruleNames(confirmedReverseDns)).not.toContain('RDNS_NONE');
    expect(ruleNames(confirmedReverseDns)).not.toContain('NO_RELAYS');

    // A simulated message had no SMTP session: spamd sees it as it is, with no relay.
    const simulated = await analyseMessage(plainMessage, null, deps);
    expect(ruleNames(simulated)).toContain('NO_RELAYS');
    expect(simulated.engines.find((engine) => engine.id === 'spamassassin')?.status).toBe('ran');
  });
});
