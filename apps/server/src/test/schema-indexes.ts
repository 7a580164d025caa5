import { sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import { getTableConfig, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { DatabaseHandle } from '../db/client';

/** An index or unique constraint of a table, and the condition of a partial index. */
export interface Declared {
  table: string;
  name: string;
  kind: 'index' | 'unique index' | 'unique constraint';
  columns: string[];
  where?: string;
}

const byName = (a: Declared, b: Declared) => a.name.localeCompare(b.name);
const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * A partial index's condition with what each side adds of its own taken away: the table name
 * and quotes drizzle writes, the casts and parentheses PostgreSQL prints back.
 */
const plainCondition = (condition: string) =>
  condition
    .replace(/"\w+"\./g, '')
    .replaceAll('"', '')
    .replace(/::\w+/g, '')
    .replace(/^\((.*)\)$/, '$1')
    .trim();

/**
 * The indexes and unique constraints a table declares, as drizzle-kit reads them to write the
 * migrations (its columns in the database's snake_case), the primary key aside.
 */
export function declaredOn(table: PgTable): Declared[] {
  const config = getTableConfig(table);
  return [
    ...config.indexes.map(({ config: index }) => ({
      table: config.name,
      name: index.name!,
      kind: index.unique ? ('unique index' as const) : ('index' as const),
      columns: index.columns.map((column) => toSnakeCase((column as { name: string }).name)),
      ...(index.where ? { where: plainCondition(dialect.sqlToQuery(index.where).sql) } : {}),
    })),
    ...config.uniqueConstraints.map((constraint) => ({
      table: config.name,
      name: constraint.getName()!,
      kind: 'unique constraint' as const,
      columns: constraint.columns.map((column) => toSnakeCase(column.name)),
    })),
    ...config.columns
      .filter((column) => column.isUnique)
      .map((column) => ({
        table: config.name,
        name: column.uniqueName!,
        kind: 'unique constraint' as const,
        columns: [toSnakeCase(column.name)],
      })),
  ].sort(byName);
}

/** The indexes of a table in the migrated database, and which of them back a unique constraint. */
export async function migratedOn(database: DatabaseHandle, table: string): Promise<Declared[]> {
  const result = await database.db.execute(sql`
    SELECT i.relname AS "name",
      CASE
        WHEN EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype = 'u')
          THEN 'unique constraint'
        WHEN ix.indisunique THEN 'unique index'
        ELSE 'index'
      END AS "kind",
      (SELECT array_agg(a.attname::text ORDER BY k.i)
         FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(n, i)
         JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.n) AS "columns",
      pg_get_expr(ix.indpred, ix.indrelid) AS "where"
    FROM pg_index ix
    JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_class t ON t.oid = ix.indrelid
    WHERE t.relname = ${table} AND t.relnamespace = 'public'::regnamespace AND NOT ix.indisprimary`);
  type Row = Omit<Declared, 'table' | 'where'> & { where: string | null };
  return (result as unknown as { rows: Row[] }).rows
    .map(({ where, ...row }) => ({
      table,
      ...row,
      ...(where ? { where: plainCondition(where) } : {}),
    }))
    .sort(byName);
}

/** The columns of a table's primary key as declared, on a column or for several. */
export function declaredPrimaryKey(table: PgTable): string[] {
  const config = getTableConfig(table);
  const columns = config.primaryKeys[0]?.columns ?? config.columns.filter((c) => c.primary);
  return columns.map((column) => toSnakeCase(column.name));
}

/** The columns of a table's primary key in the migrated database, in the key's order. */
export async function migratedPrimaryKey(database: DatabaseHandle, table: string) {
  const result = await database.db.execute(sql`
    SELECT a.attname::text AS "column"
    FROM pg_index ix
    JOIN pg_class t ON t.oid = ix.indrelid
    CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(n, i)
    JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.n
    WHERE t.relname = ${table} AND t.relnamespace = 'public'::regnamespace AND ix.indisprimary
    ORDER BY k.i`);
  return (result as unknown as { rows: { column: string }[] }).rows.map((row) => row.column);
}
