import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from './platform/env';
import { startRuntime } from './runtime';

// Built into dist/server.js, so from the source file and the bundle alike the front end is ../dist/web.
const webRoot = path.resolve(fileURLToPath(new URL('../dist/web', import.meta.url)));

/** A start that cannot go on (a bad variable, an old PGlite DATA_DIR, no database) says why first, then where. */
function startFailed(error: unknown): never {
  const err = error instanceof Error ? error : new Error(String(error));
  const frames = err.stack?.indexOf('\n    at ') ?? -1;
  process.stderr.write(
    `InboxPulse did not start:\n${err.message}\n${frames >= 0 ? `\n${err.stack!.slice(frames + 1)}\n` : ''}`,
  );
  process.exit(1);
}

const runtime = await Promise.resolve()
  .then(() => startRuntime(loadEnv(), { webRoot }))
  .catch(startFailed);

const SHUTDOWN_TIMEOUT_MS = 30_000;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    runtime.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      runtime.logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
      (err) => {
        runtime.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
