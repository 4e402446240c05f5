import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImapError } from '../../platform/imap/imap-client';
import { noDovecot, startDovecot, type TestImapServer } from '../../test/dovecot';
import { searchSeedMailbox, type SeedMailboxConfig } from './seed-mailbox';

const message = (subject: string) =>
  `From: sender@example.com\r\nTo: seed@example.com\r\nSubject: ${subject}\r\nMessage-ID: <${Math.random()}@example.com>\r\n\r\nHello\r\n`;

const USERS = ['plain', 'gmailish', 'cleanup', 'case', 'login'].map((user) => ({
  user: `${user}@seeds.example`,
  password: `${user} pw`,
}));

describe.skipIf(noDovecot)('searchSeedMailbox (real Dovecot)', () => {
  let imap: TestImapServer;
  beforeAll(async () => {
    imap = await startDovecot({ users: USERS });
  });
  afterAll(() => imap?.stop());

  const config = (user: string, overrides: Partial<SeedMailboxConfig> = {}): SeedMailboxConfig => ({
    host: imap.host,
    port: imap.port,
    secure: false,
    user,
    password: USERS.find((u) => u.user === user)!.password,
    inboxFolder: 'INBOX',
    spamFolders: ['Junk', 'Spam', '[Gmail]/Spam'],
    deleteFound: false,
    ...overrides,
  });
  const logins = (user: string) => imap.log().split(`Login: user=<${user}>`).length - 1;

  it('finds each tag in the inbox or a spam folder in one connection, and changes nothing', async () => {
    const user = 'plain@seeds.example';
    await imap.deliver(user, 'INBOX', message('Newsletter [TEST-1]'));
    await imap.deliver(user, 'INBOX', message('Unrelated mail'));
    await imap.deliver(user, 'Junk', message('[TEST-12] Big sale'));
    await imap.deliver(user, 'Junk', message('Also [TEST-1] in junk'));
    const loginsBefore = logins(user);

    const found = await searchSeedMailbox(config(user), ['[TEST-1]', '[TEST-12]', '[TEST-123]']);

    expect(Object.fromEntries(found)).toEqual({
      '[TEST-1]': { placement: 'inbox', folder: 'INBOX', tab: null },
      '[TEST-12]': { placement: 'spam', folder: 'Junk', tab: null },
    });
    await expect.poll(() => logins(user)).toBe(loginsBefore + 1);
    // Read-only: not flagged \Seen, nothing deleted.
    expect((await imap.listMessages(user, 'INBOX')).map((m) => m.flags)).toEqual([[], []]);
    expect(await imap.listMessages(user, 'Junk')).toHaveLength(2);
  });

  it('searches only spam folders that exist, a folder such as [Gmail]/Spam included', async () => {
    const user = 'gmailish@seeds.example';
    await imap.deliver(user, '[Gmail]/Spam', message('Offer [TEST-7]'));
    const found = await searchSeedMailbox(config(user, { spamFolders: ['Bulk Mail', '[Gmail]/Spam', 'Junk E-mail'] }), [
      '[TEST-7]',
    ]);
    expect(found.get('[TEST-7]')).toEqual({ placement: 'spam', folder: '[Gmail]/Spam', tab: null });
    expect(await searchSeedMailbox(config(user, { spamFolders: ['Junk'] }), ['[TEST-7]'])).toEqual(new Map());
  });

  it('matches the tag in any case and in an encoded subject', async () => {
    const user = 'case@seeds.example';
    await imap.deliver(user, 'INBOX', message('re: [test-31] lower case'));
    await imap.deliver(user, 'Spam', message(`=?UTF-8?B?${Buffer.from('Größe [TEST-32] ✓').toString('base64')}?=`));
    const found = await searchSeedMailbox(config(user), ['[TEST-31]', '[TEST-32]']);
    expect(found.get('[TEST-31]')).toMatchObject({ placement: 'inbox' });
    expect(found.get('[TEST-32]')).toMatchObject({ placement: 'spam', folder: 'Spam' });
  });

  it('deletes the found messages when asked, and only those', async () => {
    const user = 'cleanup@seeds.example';
    await imap.deliver(user, 'INBOX', message('[TEST-41] first'));
    await imap.deliver(user, 'INBOX', message('keep me'));
    await imap.deliver(user, 'Junk', message('[TEST-42] second'));
    await imap.deliver(user, 'Junk', message('[TEST-43] not asked for'));
    const found = await searchSeedMailbox(config(user, { deleteFound: true }), ['[TEST-41]', '[TEST-42]']);
    expect([...found.keys()].sort()).toEqual(['[TEST-41]', '[TEST-42]']);
    expect((await imap.listMessages(user, 'INBOX')).map((m) => m.subject)).toEqual(['keep me']);
    expect((await imap.listMessages(user, 'Junk')).map((m) => m.subject)).toEqual(['[TEST-43] not asked for']);
  });

  it('throws ImapError in words for a wrong password or a missing inbox folder, never with the password', async () => {
    const user = 'login@seeds.example';
    const wrong = searchSeedMailbox(config(user, { password: 'not the pw' }), ['[TEST-1]']);
    await expect(wrong).rejects.toBeInstanceOf(ImapError);
    await expect(wrong).rejects.toMatchObject({
      failure: 'auth',
      message: expect.stringContaining(`refused the login as ${user}`),
    });
    await expect(wrong).rejects.not.toMatchObject({ message: expect.stringContaining('not the pw') });

    await expect(searchSeedMailbox(config(user, { inboxFolder: 'Inbox/Primary' }), ['[TEST-1]'])).rejects.toMatchObject(
      {
        failure: 'folder',
        message: expect.stringContaining('IMAP folder "Inbox/Primary" does not exist'),
      },
    );
    // No tags, no connection.
    expect(await searchSeedMailbox(config(user, { password: 'not the pw' }), [])).toEqual(new Map());
  });
});
