// Each table has one owner (server/platform/db/schema/owners.ts, ADR 048), and only its owner queries it:
// - a file of server/<capability>/ queries its capability's tables and the platform's;
// - server/platform/ queries only the platform's tables, server/engine/ none;
// - server/insights/ reads any table and writes none: a read across capabilities is a read model there.
// A table is seen where a file imports its Drizzle identifier from the schema, and where raw SQL
// (sql`...`) names it after from, join, into, update or table. Tests set up data across tables and are
// left out, as are the schema files (foreign keys) and the files at server/ root, which compose capabilities.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const schemaDir = path.join(root, 'server/platform/db/schema');

/** table name -> owner, from owners.ts's plain `table: 'owner',` lines. */
function readOwners() {
  const text = readFileSync(path.join(schemaDir, 'owners.ts'), 'utf8');
  return new Map([...text.matchAll(/^\s*(\w+): '([\w-]+)',/gm)].map((m) => [m[1], m[2]]));
}

/** Drizzle identifier -> table name, from the schema files' `export const x = pgTable('name'`. */
function readTables() {
  const tables = new Map();
  for (const file of readdirSync(schemaDir)) {
    const text = readFileSync(path.join(schemaDir, file), 'utf8');
    for (const m of text.matchAll(/export const (\w+)\s*=\s*pgTable\(\s*'(\w+)'/g)) tables.set(m[1], m[2]);
  }
  return tables;
}

const owners = readOwners();
const tables = readTables();
const tableNames = new Set(tables.values());

/** Whose tables a file may query: undefined when the rule does not apply to it. */
function placeOf(rel) {
  if (/(\.test\.tsx?|\.test-support\.ts)$/.test(rel) || /(^|\/)test\//.test(rel)) return undefined;
  if (rel.startsWith('server/platform/db/schema/')) return undefined;
  if (rel.startsWith('server/insights/')) return { name: 'insights', owns: () => false };
  if (rel.startsWith('server/engine/')) return { name: 'engine', owns: () => false };
  if (rel.startsWith('server/platform/')) return { name: 'platform', owns: (owner) => owner === 'platform' };
  const m = rel.match(/^server\/([^/]+)\//);
  return m ? { name: m[1], owns: (owner) => owner === m[1] || owner === 'platform' } : undefined;
}

function refusal(room, table, writing) {
  const owner = owners.get(table);
  if (owner === undefined) return `table ${table} has no owner: add it to server/platform/db/schema/owners.ts`;
  if (room.name === 'insights')
    return writing ? `server/insights/ only reads: ${table} is written by server/${owner}/` : undefined;
  if (room.owns(owner)) return undefined;
  if (room.name === 'engine') return `server/engine/ queries no table (${table} belongs to server/${owner}/)`;
  if (room.name === 'platform')
    return `server/platform/ queries only the platform's tables: ${table} belongs to server/${owner}/`;
  return `${table} belongs to server/${owner}/: call its *.service.ts, or read it with others in a read model of server/insights/`;
}

// A table named in raw SQL: after FROM, JOIN, INTO, UPDATE or TABLE (TRUNCATE TABLE, LOCK TABLE).
const SQL_TABLE = /\b(from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const WRITES = new Set(['into', 'update']);
const isSchema = (specifier) => /(^|\/)db\/schema(\/[\w-]+)?$|^\.\/schema(\/[\w-]+)?$/.test(specifier);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Only the owner of a table queries it; server/insights/ reads across capabilities' },
    schema: [],
  },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join('/');
    const room = placeOf(rel);
    if (!room) return {};
    /** Local name -> table, for the tables this file imports. */
    const imported = new Map();
    const report = (node, why) => context.report({ node, message: why + '.' });
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || !isSchema(String(node.source.value).replace(/\/index$/, ''))) return;
        for (const s of node.specifiers) {
          if (s.type !== 'ImportSpecifier' || s.importKind === 'type') continue;
          const table = tables.get(s.imported.name);
          if (table === undefined) continue;
          imported.set(s.local.name, table);
          const why = refusal(room, table, false);
          if (why) report(s, `${s.imported.name}: ${why}`);
        }
      },
      // db.insert(table), .update(table), .delete(table): only insights is held to reading here (the import
      // check already refuses others a foreign table).
      CallExpression(node) {
        if (room.name !== 'insights') return;
        const callee = node.callee;
        const [arg] = node.arguments;
        if (callee.type !== 'MemberExpression' || arg?.type !== 'Identifier' || !imported.has(arg.name)) return;
        if (!['insert', 'update', 'delete'].includes(callee.property.name)) return;
        const why = refusal(room, imported.get(arg.name), true);
        if (why) report(node, `${arg.name}: ${why}`);
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
        const text = node.quasi.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' ');
        for (const m of text.matchAll(SQL_TABLE)) {
          const table = m[2];
          if (!owners.has(table) && !tableNames.has(table)) continue;
          const why = refusal(
            room,
            table,
            WRITES.has(m[1].toLowerCase()) || /\bdelete\s+$/i.test(text.slice(0, m.index)),
          );
          if (why) report(node, `sql naming ${table}: ${why}`);
        }
      },
    };
  },
};
