// For embedded-postgres.test.ts: an "app" in its own process that starts the embedded server on
// the DATA_DIR given as argument, commits a row, says "ready <server pid>", and waits to be killed.
import pg from 'pg';
import pino from 'pino';
import { startEmbeddedPostgres } from './embedded-postgres';

const server = await startEmbeddedPostgres({ dataDir: process.argv[2], log: pino({ level: 'silent' }) });
const client = new pg.Client(server.connection);
await client.connect();
await client.query(`CREATE TABLE survivors (note text)`);
await client.query(`INSERT INTO survivors VALUES ('written before the kill')`);
process.stdout.write(`ready ${server.pid}\n`);
setInterval(() => {}, 60_000);
