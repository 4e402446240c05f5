import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './index';
import { TABLE_OWNERS } from './owners';

describe('table owners', () => {
  it('names exactly one owner for every table of the schema, and no table the schema lacks', () => {
    const tables = Object.values(schema)
      .filter((x) => is(x, PgTable))
      .map((t) => getTableName(t))
      .sort();
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(tables);
  });
});
