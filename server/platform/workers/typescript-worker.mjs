// The entry of a ThreadPool thread whose module is TypeScript (running from source: tsx, vitest).
// Node 20 does not apply `--import tsx` to a worker's entry module, so the thread registers tsx's
// loader itself and then imports the module, whose URL the pool passes as the last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[process.argv.length - 1]);
