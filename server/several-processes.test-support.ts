import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Role } from './platform/env';

/*
 * The app as production runs it, one process per role: `node server/main.ts` (through tsx) with ROLES set, on a
 * database of its own. What several-processes.test.ts needs to start, talk to and kill them.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The last bytes a process wrote, shown when it does not start or a wait fails. */
const KEPT_OUTPUT = 20_000;

export interface AppProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Its log (stdout and stderr), the latest KEPT_OUTPUT characters. */
  output(): string;
  /** Resolves once it wrote `InboxPulse started`; rejects with its output if it exits first. */
  started: Promise<void>;
  /** Resolves when it has exited. */
  exited: Promise<void>;
}

/** Starts `main.ts` with `roles`; `env` completes the environment (DATABASE_URL, ports, ...). */
export function startAppProcess(name: string, roles: Role[], env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...env, ROLES: roles.join(',') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = new Promise<void>((resolve, reject) => {
    const look = () => {
      if (output.includes('"msg":"InboxPulse started"')) resolve();
    };
    child.stdout!.on('data', look);
    void exited.then(() => reject(new Error(`${name} exited before it started:\n${output}`)));
  });
  return { name, pid: child.pid!, child, output: () => output, started, exited };
}

/** SIGTERM (a clean stop, running jobs finish), SIGKILL if it is still there after 30 s. */
export async function stopAppProcess(app: AppProcess): Promise<void> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return;
  app.child.kill('SIGTERM');
  const killer = setTimeout(() => app.child.kill('SIGKILL'), 30_000);
  await app.exited;
  clearTimeout(killer);
}

/**
 * Which of `pids` holds the TCP connection from local port `port` to `peerPort` on 127.0.0.1: the one
 * process doing the work a server sees arrive (an SMTP session, an HTTPS request). Read from /proc: the
 * connection's socket inode in the network table, then the process with a descriptor on that inode.
 */
export function connectionOwner(port: number, peerPort: number, pids: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find(([, local, remote]) => local?.endsWith(`:${hex(port)}`) && remote?.endsWith(`:${hex(peerPort)}`));
  if (!row) return undefined;
  const socket = `socket:[${row[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkOrNothing(`/proc/${pid}/fd/${fd}`) === socket);
    } catch {
      return false; // the process is gone
    }
  });
}

function readlinkOrNothing(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined; // closed meanwhile
  }
}

/** A signed-in browser against a web process over real HTTP: its session cookie, and the Origin of APP_URL. */
export class HttpSession {
  private cookie = '';
  constructor(readonly baseUrl: string) {}

  async request(method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<Response> {
    const response = await fetch(this.baseUrl + url, {
      method,
      headers: {
        origin: this.baseUrl,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { 'content-type': contentType } : {}),
      },
      body: body === undefined || typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    });
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
    if (cookies.length > 0) this.cookie = cookies.join('; ');
    return response;
  }

  /** The answer's JSON, failing with its body when the status is not `expected`. */
  async json<T>(method: string, url: string, body?: unknown, expected = 200): Promise<T> {
    const response = await this.request(method, url, body);
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  get<T>(url: string): Promise<T> {
    return this.json<T>('GET', url);
  }
}
