import { execFileSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadEnv } from '../../server/platform/env';
import { startRuntime, type Runtime } from '../../server/runtime';
import { ensureBuilt, webRoot } from '../../scripts/build.mjs';
import { startDnsServer, type TestDnsServer } from '../../server/test/dns-server';

function findChromium(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI) throw new Error('CI must run the browser tests: install Debian chromium');
/** Set when the browser tests cannot run here; vitest prints it as the skip reason. */
export const noBrowser = chromiumPath
  ? false
  : 'Chromium not installed (apt-get install chromium): browser tests skipped';

export const artifactsDir = path.resolve('e2e/artifacts');

export interface E2E {
  url: string;
  runtime: Runtime;
  browser: Browser;
  newPage(width?: number): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The real app (built SPA, API, worker) on a fresh embedded database, and Debian's Chromium. */
export async function startE2E(extraEnv: Record<string, string> = {}): Promise<E2E> {
  await ensureBuilt({ server: false, log: () => {} });
  const port = await freePort();
  const env = loadEnv({
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`, // mailed links must point at this very server
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-e2e-')),
    LOG_LEVEL: 'warn',
    SMTP_PORT: '0', // a free port: browser test files run side by side
    ...extraEnv,
  });
  const runtime = await startRuntime(env, { webRoot, jobPollSeconds: 1 });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(artifactsDir, { recursive: true });
  return {
    url: runtime.url!,
    runtime,
    browser,
    async newPage(width = 1440) {
      const context = await browser.newContext({ baseURL: runtime.url, viewport: { width, height: 900 } });
      return context.newPage();
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await runtime.stop();
    },
  };
}

export type E2EWithDns = E2E & { dns: TestDnsServer };

/** The app with its resolver pointed at a loopback DNS server whose zone the test writes. */
export async function startE2EWithDns(extraEnv: Record<string, string> = {}): Promise<E2EWithDns> {
  const dns = await startDnsServer();
  const e2e = await startE2E({ DNS_SERVERS: dns.address, ...extraEnv });
  return {
    ...e2e,
    dns,
    async close() {
      await e2e.close();
      await dns.close();
    },
  };
}
