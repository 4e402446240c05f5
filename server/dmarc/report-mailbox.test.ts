import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDovecot, startDovecot, type TestImapServer } from '../test/dovecot';
import { ImapError } from '../platform/imap/imap-client';
import { parseImapUrl } from '../platform/imap/imap-url';
import { drainUnseen, type MailboxMessage } from './report-mailbox';

const password = 'S3cret-pw!';
// One user per test, so tests share a server but never each other's mail.
const users = ['hands', 'throws', 'toobig', 'limit', 'folder', 'seen'].map((user) => ({
  user: `${user}@example.com`,
  password,
}));

const mail = (subject: string, body = `Body of ${subject}`) =>
  `From: reports@example.net\r\nTo: dmarc@example.com\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@example.net>\r\n\r\n${body}\r\n`;

describe.skipIf(noDovecot)('drainUnseen against Dovecot', () => {
  let imap: TestImapServer;
  const mailbox = (user: string, folder = 'INBOX', pass = password) =>
    parseImapUrl(
      `imap://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${imap.port}/${encodeURIComponent(folder)}?starttls=false`,
      'TEST_URL',
    );
  const collect = () => {
    const seen: MailboxMessage[] = [];
    return { seen, handle: async (m: MailboxMessage) => void seen.push(m) };
  };
  const unseenUids = async (user: string, folder = 'INBOX') =>
    (await imap.listMessages(user, folder)).filter((m) => !m.flags.includes('\\Seen')).map((m) => m.uid);

  beforeAll(async () => {
    imap = await startDovecot({ users });
  });
  afterAll(() => imap?.stop());

  it('hands every unseen message, oldest first, then flags it seen', async () => {
    const user = 'hands@example.com';
    for (const n of [1, 2, 3]) await imap.deliver(user, 'INBOX', mail(`Report ${n}`));
    const { seen, handle } = collect();

    expect(await drainUnseen(mailbox(user), { limit: 10, maxBytes: 100_000, handle })).toEqual({
      handled: 3,
      failed: 0,
      skippedTooBig: [],
    });
    expect(seen.map((m) => m.uid)).toEqual([1, 2, 3]);
    seen.forEach((m, i) => {
      expect(m.raw.toString()).toContain(`Subject: Report ${i + 1}`);
      expect(m.raw.toString()).toContain(`Body of Report ${i + 1}`);
      expect(m.messageId).toBe(`<Report${i + 1}@example.net>`);
      expect(m.folder).toBe('INBOX');
      expect(m.uidValidity).toMatch(/^\d+$/);
    });
    expect(await unseenUids(user)).toEqual([]);

    const again = collect();
    expect(await drainUnseen(mailbox(user), { limit: 10, maxBytes: 100_000, handle: again.handle })).toEqual({
      handled: 0,
      failed: 0,
      skippedTooBig: [],
    });
    expect(again.seen).toEqual([]);
  });

  it('leaves a message whose handler threw unseen for the next poll', async () => {
    const user = 'throws@example.com';
    for (const n of [1, 2, 3]) await imap.deliver(user, 'INBOX', mail(`Report ${n}`));
    const handle = async (m: MailboxMessage) => {
      if (m.raw.includes('Report 2')) throw new Error('database is down');
    };

    expect(await drainUnseen(mailbox(user), { limit: 10, maxBytes: 100_000, handle })).toEqual({
      handled: 2,
      failed: 1,
      skippedTooBig: [],
    });
    expect(await unseenUids(user)).toEqual([2]);

    const retry = collect();
    expect(await drainUnseen(mailbox(user), { limit: 10, maxBytes: 100_000, handle: retry.handle })).toMatchObject({
      handled: 1,
    });
    expect(retry.seen.map((m) => m.uid)).toEqual([2]);
  });

  it('skips and flags a message bigger than maxBytes without downloading it', async () => {
    const user = 'toobig@example.com';
    await imap.deliver(user, 'INBOX', mail('Small'));
    await imap.deliver(user, 'INBOX', mail('Huge', 'x'.repeat(20_000)));
    const { seen, handle } = collect();
    const warnings: unknown[] = [];
    const logger = { warn: (obj: unknown) => void warnings.push(obj), error: () => {} };

    expect(await drainUnseen(mailbox(user), { limit: 10, maxBytes: 10_000, handle, logger })).toEqual({
      handled: 1,
      failed: 0,
      skippedTooBig: [2],
    });
    expect(seen.map((m) => m.uid)).toEqual([1]);
    expect(warnings).toEqual([expect.objectContaining({ uid: 2, maxBytes: 10_000 })]);
    expect(await unseenUids(user)).toEqual([]);
  });

  it('takes at most `limit` messages, oldest first, and ignores ones already seen', async () => {
    const user = 'limit@example.com';
    await imap.deliver(user, 'INBOX', mail('Read already'), ['\\Seen']);
    for (const n of [1, 2, 3]) await imap.deliver(user, 'INBOX', mail(`Report ${n}`));
    const { seen, handle } = collect();

    expect(await drainUnseen(mailbox(user), { limit: 2, maxBytes: 100_000, handle })).toMatchObject({ handled: 2 });
    expect(seen.map((m) => m.uid)).toEqual([2, 3]);
    expect(await unseenUids(user)).toEqual([4]);
  });

  it('reads the folder named in the URL', async () => {
    const user = 'folder@example.com';
    await imap.deliver(user, 'INBOX', mail('Not a report'));
    await imap.deliver(user, 'DMARC Reports', mail('Report in folder'));
    await imap.deliver(user, '[Gmail]/Spam', mail('Report in spam'));

    const inFolder = collect();
    expect(
      await drainUnseen(mailbox(user, 'DMARC Reports'), { limit: 10, maxBytes: 100_000, handle: inFolder.handle }),
    ).toMatchObject({ handled: 1 });
    expect(inFolder.seen.map((m) => [m.folder, m.raw.includes('Report in folder')])).toEqual([['DMARC Reports', true]]);

    const inSpam = collect();
    expect(
      await drainUnseen(mailbox(user, '[Gmail]/Spam'), { limit: 10, maxBytes: 100_000, handle: inSpam.handle }),
    ).toMatchObject({ handled: 1 });
    expect(inSpam.seen[0].raw.includes('Report in spam')).toBe(true);
    expect(await unseenUids(user, 'INBOX')).toEqual([1]);
  });

  it('names a missing folder', async () => {
    const error = await drainUnseen(mailbox('seen@example.com', 'Nope'), {
      limit: 10,
      maxBytes: 100_000,
      handle: async () => {},
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ImapError);
    expect(error).toMatchObject({
      failure: 'folder',
      message: expect.stringContaining('IMAP folder "Nope" cannot be opened'),
    });
  });

  it('says the login was refused, without the password', async () => {
    const wrong = 'Wr0ng-pw-42';
    const error = await drainUnseen(mailbox('seen@example.com', 'INBOX', wrong), {
      limit: 10,
      maxBytes: 100_000,
      handle: async () => {},
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ImapError);
    expect(error.failure).toBe('auth');
    expect(error.message).toContain(`IMAP server 127.0.0.1:${imap.port} refused the login as seen@example.com`);
    expect(error.message).not.toContain(wrong);
    expect(JSON.stringify(error)).not.toContain(wrong);
  });

  it('says when nothing listens on the port', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const config = { ...mailbox('seen@example.com'), port: closedPort };
    const error = await drainUnseen(config, { limit: 10, maxBytes: 100_000, handle: async () => {} }).catch((e) => e);
    expect(error).toMatchObject({
      failure: 'connect',
      message: expect.stringContaining(`Cannot connect to IMAP server 127.0.0.1:${closedPort}`),
    });
    expect(error.message).not.toContain(password);
  });
});
