// `npm start`: build what is missing or stale (the front end, the server bundle), then run the
// compiled server. No TypeScript is transpiled at run time.
import { ensureBuilt, serverBundle } from './build.mjs';

await ensureBuilt();
await import(serverBundle);
