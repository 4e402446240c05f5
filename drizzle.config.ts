import { defineConfig } from 'drizzle-kit';

// One schema and one migration folder serve both PGlite and PostgreSQL (see docs/decisions/001).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/platform/db/schema/index.ts',
  out: './server/platform/db/migrations',
  casing: 'snake_case',
});
