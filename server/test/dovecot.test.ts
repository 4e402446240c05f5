import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDovecot, startDovecot, type TestImapServer } from './dovecot';

const message = (subject: string) => `From: a@example.com\r\nTo: b@example.com\r\nSubject: ${subject}\r\n\r\nHello\r\n`;

describe.skipIf(noDovecot)('test Dovecot', () => {
  let imap: TestImapServer;
  beforeAll(async () => {
    imap = await startDovecot({
      users: [
        { user: 'seed1@example.com', password: 'pw1' },
        { user: 'seed2', password: 'pw2' },
      ],
    });
  });
  afterAll(() => imap?.stop());

  it('keeps each user and folder apart, including [Gmail]/Spam', async () => {
    await imap.deliver('seed1@example.com', 'INBOX', message('to inbox'));
    await imap.deliver('seed1@example.com', 'Junk', message('to junk'), ['\\Seen']);
    await imap.deliver('seed2', '[Gmail]/Spam', message('to gmail spam'));
    await imap.deliver('seed2', '[Gmail]/Spam', Buffer.from(message('again')));

    expect(await imap.listMessages('seed1@example.com', 'INBOX')).toEqual([{ uid: 1, flags: [], subject: 'to inbox' }]);
    expect(await imap.listMessages('seed1@example.com', 'Junk')).toEqual([
      { uid: 1, flags: ['\\Seen'], subject: 'to junk' },
    ]);
    expect((await imap.listMessages('seed2', '[Gmail]/Spam')).map((m) => m.subject)).toEqual([
      'to gmail spam',
      'again',
    ]);
    expect(await imap.listMessages('seed2', 'INBOX')).toEqual([]);
  });

  it('runs several servers at once on different ports', async () => {
    const other = await startDovecot({ users: [{ user: 'seed1@example.com', password: 'other' }] });
    try {
      expect(other.port).not.toBe(imap.port);
      expect(await other.listMessages('seed1@example.com', 'INBOX')).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
