import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createMailingTestApp, signUp } from '../../test/test-app';
import { waitUntil } from '../../test/wait-until';

let dns: TestDnsServer;
let t: Awaited<ReturnType<typeof createMailingTestApp>>;
beforeAll(async () => {
  dns = await startDnsServer();
  t = await createMailingTestApp({ DNS_SERVERS: dns.address });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

describe('an alert e-mail, from the data to the mailbox', () => {
  it('a check that finds no SPF, DKIM or DMARC raises an alert whose e-mail reaches the SMTP server, through the jobs alone', async () => {
    const { client, user } = await signUp(t.app);
    // Nothing published: every record is missing.
    const domain = (await client.post('/api/domains', { domain: 'unsigned-brand.com' })).json();
    expect((await client.post(`/api/domains/${domain.id}/verify`)).json()).toMatchObject({
      spfStatus: 'missing',
      dmarcStatus: 'missing',
    });

    // The check queues the evaluation, which raises the alert and queues its delivery, which writes the
    // outbox mail that send-email hands to the SMTP server: no step is called by the test.
    const alertMail = () =>
      t.smtp.messages.find((m) => m.subject?.startsWith('[InboxPulse]') && JSON.stringify(m.to).includes(user.email));
    const mail = await waitUntil(async () => alertMail(), 'the alert mail at the SMTP server', { timeoutMs: 30_000 });
    // The check's records raise two alerts in one evaluation (authentication, and the bulk-sender rules they break),
    // delivered together in one mail that links each.
    const alerts = (await client.get('/api/alerts')).json() as { id: number; title: string; type: string }[];
    expect(alerts.map((a) => a.type).sort()).toEqual(['authentication_failure', 'compliance']);
    expect(mail!.subject).toBe('[InboxPulse] 2 alerts');
    for (const alert of alerts) {
      expect(mail!.text).toContain(`/alerts?alertId=${alert.id}`);
      expect(mail!.html).toContain(`/alerts?alertId=${alert.id}`);
    }
  });
});
