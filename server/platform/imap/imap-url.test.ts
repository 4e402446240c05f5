import { describe, expect, it } from 'vitest';
import { parseImapUrl } from './imap-url';

describe('parseImapUrl', () => {
  it('reads an imaps URL with percent-encoded user and password', () => {
    expect(parseImapUrl('imaps://user%40example.com:p%40ss@imap.example.com:993/INBOX', 'DMARC_IMAP_URL')).toEqual({
      host: 'imap.example.com',
      port: 993,
      secure: true,
      user: 'user@example.com',
      password: 'p@ss',
      folder: 'INBOX',
    });
  });

  it('reads an imap URL with its options', () => {
    expect(
      parseImapUrl('imap://dmarc:secret@127.0.0.1:1143/Reports?starttls=false&tls_reject_unauthorized=false'),
    ).toEqual({
      host: '127.0.0.1',
      port: 1143,
      secure: false,
      user: 'dmarc',
      password: 'secret',
      folder: 'Reports',
      doSTARTTLS: false,
      tlsRejectUnauthorized: false,
    });
    expect(parseImapUrl('imap://u:p@h?starttls=true').doSTARTTLS).toBe(true);
  });

  it('defaults the port by scheme, the folder to INBOX and STARTTLS to opportunistic', () => {
    expect(parseImapUrl('imaps://u:p@imap.example.com')).toMatchObject({ port: 993, folder: 'INBOX' });
    const plain = parseImapUrl('imap://u:p@imap.example.com/');
    expect(plain).toMatchObject({ port: 143, folder: 'INBOX', secure: false });
    expect(plain.doSTARTTLS).toBeUndefined();
  });

  it('decodes nested folders and unwraps IPv6 hosts', () => {
    expect(parseImapUrl('imaps://u:p@h/%5BGmail%5D/Spam').folder).toBe('[Gmail]/Spam');
    expect(parseImapUrl('imaps://u:p@h/[Gmail]/Spam').folder).toBe('[Gmail]/Spam');
    expect(parseImapUrl('imaps://u:p@h/DMARC%20Reports').folder).toBe('DMARC Reports');
    expect(parseImapUrl('imaps://u:p@[::1]:1993/').host).toBe('::1');
  });

  it.each([
    ['not a url', 'not a URL'],
    ['https://u:p@h/INBOX', 'the scheme is https'],
    ['imaps://h/INBOX', 'the user is missing'],
    ['imaps://u@h/INBOX', 'the password is missing'],
    ['imaps://:p@h/INBOX', 'the user is missing'],
    ['imaps://u:p@h:0/', 'port'],
    ['imaps://u:%E0%A4%A@h/', 'broken %-escape'],
    ['imap://u:p@h/?startls=false', 'unknown option startls'],
    ['imap://u:p@h/?starttls=no', 'starttls must be true or false'],
    ['imaps://u:p@h/?starttls=false', 'starttls applies to imap://'],
  ])('refuses %s', (url, problem) => {
    expect(() => parseImapUrl(url, 'DMARC_IMAP_URL')).toThrow(
      'DMARC_IMAP_URL must look like imaps://user:password@host:993/INBOX',
    );
    expect(() => parseImapUrl(url, 'DMARC_IMAP_URL')).toThrow(problem);
  });

  it('never repeats the password in an error', () => {
    expect(() => parseImapUrl('ftp://u:hunter2@h/', 'DMARC_IMAP_URL')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
