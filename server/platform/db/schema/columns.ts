import { integer, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The id of the row this one belongs to (its account, domain, report...): always set, and deleting that row
 * deletes this one with it, so nothing is left behind that no one can see or remove.
 */
export const belongsTo = (parentId: () => AnyPgColumn) =>
  integer().notNull().references(parentId, { onDelete: 'cascade' });
