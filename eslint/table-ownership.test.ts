import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The table rule's complaints about `code` if it stood in `file`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'layout/table-ownership').map((m) => m.message);
}

const readsSourceDays = (schema: string) =>
  `import { dmarcSourceDays } from '${schema}';\nexport const read = (db: any) => db.select().from(dmarcSourceDays);\n`;

describe('npm run lint: only the owner of a table queries it', () => {
  it('fails on a planted read of another capability’s table by its Drizzle identifier', async () => {
    expect(
      await complaints('server/reputation/planted.repo.ts', readsSourceDays('../platform/db/schema/index')),
    ).toEqual([
      'dmarcSourceDays: dmarc_source_days belongs to server/dmarc/: call its *.service.ts, or read it with others in a read model of server/insights/.',
    ]);
    expect(await complaints('server/timeline/planted.ts', readsSourceDays('../platform/db/schema/dmarc'))).toHaveLength(
      1,
    );
  });

  it('fails on a planted read of another capability’s table named in raw SQL', async () => {
    const code =
      "import { sql } from 'drizzle-orm';\nexport const q = sql`SELECT count(*) FROM inbox_tests t JOIN domains d ON d.id = t.domain_id`;\n";
    expect(await complaints('server/dashboard/planted.repo.ts', code)).toEqual([
      'sql naming inbox_tests: inbox_tests belongs to server/inbox-tests/: call its *.service.ts, or read it with others in a read model of server/insights/.',
      'sql naming domains: domains belongs to server/domains/: call its *.service.ts, or read it with others in a read model of server/insights/.',
    ]);
  });

  it('keeps the platform to its own tables and the engine to none', async () => {
    expect(await complaints('server/platform/db/planted.ts', readsSourceDays('./schema/index'))).toEqual([
      "dmarcSourceDays: server/platform/ queries only the platform's tables: dmarc_source_days belongs to server/dmarc/.",
    ]);
    expect(
      await complaints(
        'server/engine/blocklists/planted.ts',
        "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1 from sessions`;\n",
      ),
    ).toEqual(['sql naming sessions: server/engine/ queries no table (sessions belongs to server/platform/).']);
  });

  it('lets insights read any table and write none', async () => {
    expect(await complaints('server/insights/planted.ts', readsSourceDays('../platform/db/schema/index'))).toEqual([]);
    expect(
      await complaints(
        'server/insights/planted.ts',
        "import { sql } from 'drizzle-orm';\nimport { domains } from '../platform/db/schema/index';\nexport const a = (db: any) => db.delete(domains);\nexport const b = sql`UPDATE inbox_tests SET status = 'x'`;\n",
      ),
    ).toEqual([
      'domains: server/insights/ only reads: domains is written by server/domains/.',
      'sql naming inbox_tests: server/insights/ only reads: inbox_tests is written by server/inbox-tests/.',
    ]);
  });

  it('makes no exception: the reputation checks reach the domains table only through the domains capability', async () => {
    const domainsRead =
      "import { domains } from '../platform/db/schema/index';\nexport const read = (db: any) => db.select().from(domains);\n";
    expect(await complaints('server/reputation/ip-addresses.repo.ts', domainsRead)).toHaveLength(1);
    expect(await complaints('server/domains/domain-reputation.repo.ts', domainsRead)).toEqual([]);
  });

  it('lets a capability query its own tables and the platform’s, and leaves tests and type imports alone', async () => {
    expect(
      await complaints(
        'server/dmarc/planted.repo.ts',
        `${readsSourceDays('../platform/db/schema/index')}import { users } from '../platform/db/schema/index';\nexport const u = (db: any) => db.update(users);\n`,
      ),
    ).toEqual([]);
    expect(
      await complaints('server/reputation/planted.test.ts', readsSourceDays('../platform/db/schema/index')),
    ).toEqual([]);
    expect(
      await complaints(
        'server/reputation/planted.ts',
        "import type { dmarcSourceDays } from '../platform/db/schema/index';\nexport type T = typeof dmarcSourceDays;\n",
      ),
    ).toEqual([]);
  });
});
