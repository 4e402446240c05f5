import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { answers, freePort, spawnGroup, stopGroup } from './process-group';
import { waitUntil } from './wait-until';

/**
 * A real, private Dovecot 2.3 IMAP server on 127.0.0.1 for tests. Each instance lives in its own
 * temp dir (config, sockets, state, mail) and listens on its own port, so test files running in
 * parallel do not meet. Tests stand in for a provider's filter by appending to INBOX or Junk.
 */
export interface TestImapServer {
  host: '127.0.0.1';
  /** Plain IMAP (no TLS): use `imap://user:password@127.0.0.1:<port>/INBOX?starttls=false`. */
  port: number;
  users: TestImapUser[];
  /** Appends a message as `user` (over real IMAP), creating `folder` if missing. */
  deliver(user: string, folder: string, rawMessage: string | Buffer, flags?: string[]): Promise<void>;
  listMessages(user: string, folder: string): Promise<{ uid: number; flags: string[]; subject?: string }[]>;
  /** Everything Dovecot logged so far (auth failures, mail errors): print it when a test puzzles you. */
  log(): string;
  stop(): Promise<void>;
}

export interface TestImapUser {
  user: string;
  password: string;
}

const dovecotBinary = findDovecot();

/** A skip reason for `describe.skipIf(noDovecot)`, or false when Dovecot can run. */
export const noDovecot: string | false = dovecotBinary
  ? false
  : 'dovecot is not installed (apt-get install dovecot-imapd)';

function findDovecot(): string | null {
  const dirs = ['/usr/sbin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  return dirs.map((dir) => path.join(dir, 'dovecot')).find((file) => existsSync(file)) ?? null;
}

export async function startDovecot(opts: { users: TestImapUser[] }): Promise<TestImapServer> {
  if (!dovecotBinary) throw new Error(noDovecot as string);
  for (const { user, password } of opts.users) {
    // The passwd-file is colon-separated, one user a line.
    if (/[:\r\n]/.test(user + password) || !user)
      throw new Error(`Test IMAP user ${JSON.stringify(user)}: no ':' or newlines in user or password`);
  }
  // Another process may take the port between our probe and Dovecot's bind: try again with a new one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(dovecotBinary, opts.users, await freePort());
    } catch (err) {
      if (attempt >= 3 || !/Address already in use/.test(String(err))) throw err;
    }
  }
}

async function startOnce(binary: string, users: TestImapUser[], port: number): Promise<TestImapServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'inboxpulse-dovecot-'));
  let child: ChildProcess | undefined;
  let output = '';
  try {
    const mailOwner = mailUser();
    // Mail processes run as mailOwner (Dovecot refuses root for mail access): they must reach dir/mail.
    await chmod(dir, 0o711);
    await mkdir(path.join(dir, 'mail'));
    if (process.getuid?.() === 0) await chown(path.join(dir, 'mail'), mailOwner.uid, mailOwner.gid);
    const passwd = users.map(
      (u, i) =>
        `${u.user}:{PLAIN}${u.password}:${mailOwner.uid}:${mailOwner.gid}::${path.join(dir, 'mail', `u${i}`)}::\n`,
    );
    await writeFile(path.join(dir, 'passwd'), passwd.join(''), { mode: 0o600 });
    await writeFile(path.join(dir, 'dovecot.conf'), dovecotConfig(dir, port, mailOwner));

    child = spawnGroup(binary, ['-F', '-c', path.join(dir, 'dovecot.conf')], dir, (chunk) => {
      output = (output + chunk).slice(-100_000);
    });
    const started = child;
    await waitForGreeting(port, started, () => output);
    let stopped: Promise<void> | undefined;
    return {
      host: '127.0.0.1',
      port,
      users,
      deliver: (user, folder, raw, flags) => asUser(port, users, user, (c) => deliver(c, folder, raw, flags)),
      listMessages: (user, folder) => asUser(port, users, user, (c) => listMessages(c, folder)),
      log: () => output,
      stop: () =>
        (stopped ??= (async () => {
          await stopGroup(started);
          await rm(dir, { recursive: true, force: true });
        })()),
    };
  } catch (err) {
    if (child) await stopGroup(child);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`Dovecot did not start: ${(err as Error).message}\n${output.trim()}`);
  }
}

/**
 * Dovecot 2.3 as root refuses to run login processes as root and to give mail access to uid/gid 0,
 * so mail and logins belong to `owner` (see mailUser) while internal processes may stay root.
 */
function dovecotConfig(dir: string, port: number, owner: ReturnType<typeof mailUser>): string {
  return `# Written by server/test/dovecot.ts: a throwaway IMAP server for one test file.
# Everything lives under ${dir}; nothing reads /etc/dovecot or binds a fixed port.
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = inboxpulse-test-${port}
log_path = /dev/stderr
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
# Tests try wrong passwords on purpose: answer them after 0.5 s (Dovecot's floor) instead of 2 s.
auth_failure_delay = 0
# Parallel tests share one IP and user; the default allows 10 connections.
mail_max_userip_connections = 100
# The mail is thrown away after the test.
mail_fsync = never
# Mail belongs to ${owner.name} (uid ${owner.uid}, set per user in the passwd-file).
default_internal_user = ${owner.internal}
default_internal_group = ${owner.internalGroup}
default_login_user = ${owner.login}
first_valid_uid = ${Math.min(owner.uid, 500)}
first_valid_gid = ${Math.min(owner.gid, 1)}
mail_location = maildir:~/Maildir
# '/' as separator: folders such as [Gmail]/Spam exist at real providers.
namespace inbox {
  inbox = yes
  separator = /
  prefix =
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = ${dir}/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
${owner.chroot ? '' : '  chroot =\n'}}
# After a failed login Dovecot delays the next ones from that IP by seconds (auth penalty, kept by
# anvil). Auth skips the penalty when this socket is missing, and mode 0 leaves it out.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
${owner.chroot ? '' : '  chroot =\n'}}
`;
}

/**
 * Who owns the mail. As root: 'nobody' (always present on Debian). Otherwise Dovecot can only run
 * as the current user, which then also does the login and internal work, without chroot.
 */
function mailUser() {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) {
    const gid = process.getgid?.() ?? uid;
    const name = fileEntry('/etc/passwd', (f) => Number(f[2]) === uid)?.[0] ?? String(uid);
    const group = fileEntry('/etc/group', (f) => Number(f[2]) === gid)?.[0] ?? String(gid);
    return { name, uid, gid, internal: name, internalGroup: group, login: name, chroot: false };
  }
  const nobody = fileEntry('/etc/passwd', (f) => f[0] === 'nobody');
  const [nobodyUid, nobodyGid] = nobody ? [Number(nobody[2]), Number(nobody[3])] : [65534, 65534];
  return {
    name: 'nobody',
    uid: nobodyUid,
    gid: nobodyGid,
    internal: 'root',
    internalGroup: 'root',
    login: 'nobody',
    chroot: true,
  };
}

function fileEntry(file: string, match: (fields: string[]) => boolean): string[] | undefined {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find(match);
  } catch {
    return undefined;
  }
}

/** Ready means a login process answered with the IMAP greeting, not merely that the port is bound. */
async function waitForGreeting(port: number, child: ChildProcess, output: () => string): Promise<void> {
  await waitUntil(
    async () => {
      if (!child.pid || child.exitCode !== null || child.signalCode !== null)
        throw new Error(`dovecot exited (${child.exitCode ?? child.signalCode ?? 'not started'})`);
      if (await answers(port, (data) => data.startsWith('* OK') && data.includes('\r\n'))) return true;
      if (/Fatal:/.test(output())) throw new Error('dovecot logged a fatal error');
      return false;
    },
    `the IMAP greeting of dovecot on port ${port}`,
    { timeoutMs: 10_000, intervalMs: 25 },
  );
}

async function asUser<T>(
  port: number,
  users: TestImapUser[],
  user: string,
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const account = users.find((u) => u.user === user);
  if (!account) throw new Error(`No test IMAP user ${user}; started with ${users.map((u) => u.user).join(', ')}`);
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass: account.password },
    logger: false,
    disableAutoIdle: true,
  });
  client.on('error', () => {}); // surfaced by the failing command instead
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function deliver(client: ImapFlow, folder: string, raw: string | Buffer, flags: string[] = []): Promise<void> {
  // resolves with created: false when it exists
  if (folder.toUpperCase() !== 'INBOX') await client.mailboxCreate(folder);
  const appended = await client.append(folder, raw, flags);
  if (!appended) throw new Error(`APPEND to ${folder} failed`);
}

async function listMessages(client: ImapFlow, folder: string) {
  const mailbox = await client.mailboxOpen(folder, { readOnly: true });
  if (mailbox.exists === 0) return [];
  const messages = await client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
  // \Recent belongs to the session that first sees a message, not to the message: leave it out.
  return messages.map((m) => ({
    uid: m.uid,
    flags: [...(m.flags ?? [])].filter((f) => f !== '\\Recent'),
    subject: m.envelope?.subject,
  }));
}
