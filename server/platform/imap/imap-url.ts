import type { ImapConnectionConfig } from './imap-client';

/** A connection plus the folder to read, as an operator writes it in one URL. */
export interface ImapMailboxConfig extends ImapConnectionConfig {
  folder: string;
}

const booleanParams = { starttls: 'doSTARTTLS', tls_reject_unauthorized: 'tlsRejectUnauthorized' } as const;

/**
 * `imaps://user%40example.com:p%40ss@imap.example.com:993/INBOX` or
 * `imap://dmarc:secret@127.0.0.1:1143/Reports?starttls=false` -> connection settings and folder.
 * User, password and folder are percent-decoded. `variable` names the setting in error messages,
 * which never repeat the URL (it holds a password).
 */
export function parseImapUrl(url: string, variable = 'The IMAP URL'): ImapMailboxConfig {
  const fail = (problem: string): never => {
    throw new Error(`${variable} must look like imaps://user:password@host:993/INBOX (${problem})`);
  };
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return fail('not a URL; percent-encode @ : / ? # in the user and password');
  }
  if (parsed.protocol !== 'imaps:' && parsed.protocol !== 'imap:')
    return fail(`the scheme is ${parsed.protocol.replace(/:$/, '')}, not imaps or imap`);
  const secure = parsed.protocol === 'imaps:';
  // Non-special schemes keep the brackets of an IPv6 literal in hostname; sockets want it bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return fail('the host is missing');
  const port = parsed.port ? Number(parsed.port) : secure ? 993 : 143;
  if (!(port >= 1 && port <= 65535)) return fail('the port is out of range');

  const decode = (part: string, what: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return fail(`the ${what} has a broken %-escape`);
    }
  };
  const user = decode(parsed.username, 'user');
  const password = decode(parsed.password, 'password');
  if (!user) return fail('the user is missing');
  if (!password) return fail('the password is missing');
  const folder = decode(parsed.pathname.replace(/^\//, ''), 'folder') || 'INBOX';

  const config: ImapMailboxConfig = { host, port, secure, user, password, folder };
  for (const [name, value] of parsed.searchParams) {
    if (!(name in booleanParams))
      return fail(`unknown option ${name}; known: ${Object.keys(booleanParams).join(', ')}`);
    if (value !== 'true' && value !== 'false') return fail(`${name} must be true or false`);
    if (name === 'starttls' && secure) return fail('starttls applies to imap://, imaps:// is TLS from the start');
    config[booleanParams[name as keyof typeof booleanParams]] = value === 'true';
  }
  return config;
}
