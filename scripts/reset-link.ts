// `npm run reset-link -- <e-mail address or username>`: prints a fresh password-reset link (valid 1
// hour) for an operator to hand to a user. Without SMTP_URL the app sends no mail and keeps no link in
// its log or outbox, so this is how a user of such an installation gets one. Works with the app running
// or stopped, on the embedded PostgreSQL of DATA_DIR or on DATABASE_URL.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueResetLink } from '../server/accounts/reset-link.service';
import { openDatabase } from '../server/platform/db/client';
import { openInstallationDatabase } from '../server/platform/db/installation-database';
import { loadEnv } from '../server/platform/env';
import { AppError } from '../server/platform/errors';

const USAGE = 'Usage: npm run reset-link -- <e-mail address or username>';

async function main(): Promise<void> {
  const [login, ...rest] = process.argv.slice(2);
  if (!login || rest.length > 0 || login === '--help' || login === '-h') {
    console.log(USAGE);
    if (!login || rest.length > 0) process.exitCode = 1;
    return;
  }
  const env = loadEnv();
  const installation = await openInstallationDatabase(env);
  const database = await openDatabase(installation.connection, 1);
  try {
    const { username, email, link } = await issueResetLink(database.db, env.APP_URL, login);
    console.log(`Password reset link for ${username} <${email}>, valid for 1 hour:\n${link}`);
  } finally {
    await database.close();
    await installation.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof AppError ? error.message : error);
    process.exit(1);
  });
}
