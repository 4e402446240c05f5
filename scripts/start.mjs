// `npm start`: build what is missing or stale (the front end, the server bundle), then run the
// compiled server. No TypeScript is transpiled at run time.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { isStale, root, serverBundle } from './build.mjs';

// The build runs in a process of its own: Vite's memory (several hundred MB) must not stay with
// the server for the rest of its life.
if (isStale('web') || isStale('server')) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('InboxPulse did not start: the build failed (see above).');
    process.exit(1);
  }
}
await import(serverBundle);
