// The production build: the front end with Vite into dist/web, the server with esbuild into one
// ES module, dist/server.js (npm packages stay in node_modules), with its SQL migrations in
// dist/migrations. Plain JavaScript so that `npm start` runs without a TypeScript loader.
// `npm run build` builds both; `npm start` builds what is missing or older than its sources.
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
export const webRoot = path.join(root, 'dist', 'web');
export const serverBundle = path.join(root, 'dist', 'server.js');

/** What each output is made of: a file here newer than the output makes it stale. */
const TARGETS = {
  web: {
    output: path.join(webRoot, 'index.html'),
    sources: ['web', 'contracts', 'content', 'vite.config.ts', 'package-lock.json'],
  },
  server: {
    output: serverBundle,
    sources: ['server', 'contracts', 'content', 'package-lock.json', 'scripts/build.mjs'],
  },
};

/** @param {string} entry @returns {number} */
function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (/** @type {number} */ newest, name) => Math.max(newest, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/** @param {'web' | 'server'} target */
export function isStale(target) {
  const { output, sources } = TARGETS[target];
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

export async function buildWeb() {
  const { build } = await import('vite');
  await build({ root: path.join(root, 'web'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

export async function buildServer() {
  const esbuild = await import('esbuild');
  const migrations = path.join(root, 'dist', 'migrations');
  rmSync(migrations, { recursive: true, force: true });
  // Beside the bundle: server/platform/db/client.ts finds them at ./migrations from its own module.
  cpSync(path.join(root, 'server', 'platform', 'db', 'migrations'), migrations, { recursive: true });
  await esbuild.build({
    // Worker-thread modules are entries of their own, beside server.js, where the code that starts
    // the threads finds them (new URL('./<name>.js', import.meta.url)).
    entryPoints: {
      server: path.join(root, 'server', 'main.ts'),
      'analysis.worker': path.join(root, 'server', 'engine', 'message-analysis', 'analysis.worker.ts'),
      'report-intake.worker': path.join(root, 'server', 'dmarc', 'report-intake.worker.ts'),
    },
    outdir: path.dirname(serverBundle),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // esbuild answers from a service process; `npm start` goes on to run the server in this process.
  await esbuild.stop();
}

/**
 * Builds whatever is missing or stale.
 * @param {{ web?: boolean, server?: boolean, log?: (message: string) => void }} [options]
 */
export async function ensureBuilt({ web = true, server = true, log = console.log } = {}) {
  if (web && isStale('web')) {
    log(
      existsSync(TARGETS.web.output)
        ? 'Front end changed since the last build: rebuilding…'
        : 'Building the front end (first start)…',
    );
    await buildWeb();
  }
  if (server && isStale('server')) {
    log(
      existsSync(serverBundle)
        ? 'Server changed since the last build: rebuilding…'
        : 'Building the server (first start)…',
    );
    await buildServer();
  }
}

// `node scripts/build.mjs` builds both; with --if-stale, only what is missing or stale.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) {
    await ensureBuilt();
  } else {
    await buildWeb();
    await buildServer();
  }
}
