import { and, eq } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { verifiedOwnerOf } from '../dmarc/verified-owner.test-support';
import { domains, inboundMessages } from '../platform/db/schema/index';
import { dkimSigned } from '../test/dkim-signed';
import type { ZoneEntry } from '../test/dns-server';
import type { TestApp } from '../test/test-app';

/*
 * Feedback loop reports as the tests mail them: the real samples of server/engine/feedback-reports/fixtures/ (its
 * README.md names each source), DKIM-signed with a key the test zone publishes.
 */

export const sample = (name: string) =>
  readFileSync(new URL(`../engine/feedback-reports/fixtures/${name}`, import.meta.url), 'latin1');

/** The Fastmail report (through Return Path) as if it arrived now: its Arrival-Date is the one line changed. */
export const fastmailReportNow = () =>
  sample('fastmail-returnpath.eml').replace(
    'Arrival-Date: Fri, 27 Sep 2013 16:08:16 +0000',
    `Arrival-Date: ${new Date().toUTCString()}`,
  );

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = { TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`] };

/** The DNS the signatures below verify with. */
export const LOOP_ZONE: Record<string, ZoneEntry> = {
  // The loop's own DMARC record makes fbl.fastmail.fm part of fastmail.fm (the RFC 9989 tree walk).
  '_dmarc.fastmail.fm': { TXT: ['v=DMARC1; p=none'] },
  's1._domainkey.fbl.fastmail.fm': key,
  // A stranger who signs its own mail: it proves who it is, not that it runs a feedback loop.
  's1._domainkey.stranger.example': key,
};

/** The report as the loop's mail server would send it: CRLF lines (SMTP's), DKIM-signed by `domain`. */
export async function signedBy(domain: 'fbl.fastmail.fm' | 'stranger.example', raw: string): Promise<Buffer> {
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return dkimSigned(Buffer.from(raw.replace(/\r?\n/g, '\r\n'), 'latin1'), { domain, selector: 's1', privatePem });
}

/** The received messages for the feedback loop mailbox, oldest first. */
export const fblMessages = (t: TestApp) =>
  t.database.db.select().from(inboundMessages).where(eq(inboundMessages.kind, 'fbl')).orderBy(inboundMessages.id);

/** A user who verified `domain` and sent `delivered` messages from it a minute ago, with the domain's id. */
export async function ownerWithSends(t: TestApp, domain: string, delivered: number) {
  const owner = await verifiedOwnerOf(t, domain);
  for (let i = 0; i < delivered; i++) {
    const sent = await owner.client.post('/api/events', {
      type: 'delivered',
      message_id: `sent-${i}@${domain}`,
      recipient: `reader${i}@fastmail.co.uk`,
      timestamp: new Date(Date.now() - 60_000).toISOString(),
      domain,
    });
    expect(sent.json()).toMatchObject({ accepted: 1 });
  }
  const [row] = await t.database.db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, owner.user.id), eq(domains.domain, domain)));
  return { ...owner, domainId: row.id };
}
