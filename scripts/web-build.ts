import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
export const webRoot = path.join(root, 'dist', 'web');
const builtIndex = path.join(webRoot, 'index.html');
// What the front-end bundle is made of: any change here makes the build stale.
const SOURCES = ['web', 'contracts', 'content', 'vite.config.ts', 'package-lock.json'];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

export function webBuildIsStale(): boolean {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

/** Builds the front end with Vite unless dist/web is newer than every source file. */
export async function ensureWebBuild(log: (msg: string) => void = console.log): Promise<void> {
  if (!webBuildIsStale()) return;
  log(existsSync(builtIndex) ? 'Front end changed since the last build: rebuilding…' : 'Building the front end (first start)…');
  await build({ root: path.join(root, 'web'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
