// `npm start`: build the front end when missing or stale, then run the server with the built SPA.
import { ensureWebBuild } from './web-build';

await ensureWebBuild();
await import('../server/main');
