// What closing an account leaves of a customer (docs/decisions/062-complete-erasure-on-closing.md):
// every table that refers to a customer, found in the migrated database's own catalog, is either
// emptied of the customer's rows when the account closes, or kept for a reason that a decision
// record gives. The tests read this file; a table the catalog adds must be placed in one or the
// other before they pass.
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';

export interface Kept {
  /** The number of the decision record (docs/decisions/NNN-*.md) that says why it is kept. */
  decision: string;
  reason: string;
  /** Kept past the closed-account purge, which deletes every other row of the customer. */
  outlivesAccount?: true;
}

/** The tables that keep rows of a closed customer; every other table has none left. */
export const KEPT_ON_CLOSING: Record<string, Kept> = {
  customers: {
    decision: '043',
    reason: 'a tombstone (id and GSTIN) while the tax records refer to it, then deleted',
  },
  account_closures: {
    decision: '043',
    reason: 'when the account closed and until when its tax records are kept',
  },
  orders: {
    decision: '043',
    reason: 'tax records with their billing snapshot, the payer contact erased (062)',
  },
  invoices: { decision: '043', reason: 'tax records, kept as issued' },
  credit_notes: { decision: '043', reason: 'tax records, kept as issued' },
  payment_events: {
    decision: '062',
    reason: "the gateway's events of the kept orders, their payload erased",
  },
  order_counts: { decision: '028', reason: 'the counts of the kept orders, kept by trigger' },
  consents: {
    decision: '062',
    reason: "the bank's consent id, partner, status and dates; every personal field erased",
  },
  consent_counts: { decision: '028', reason: 'the counts of the kept consents, kept by trigger' },
  sessions: {
    decision: '021',
    reason: 'revoked at closing (no personal data), deleted a day later by the auth purge',
  },
  refresh_tokens: { decision: '021', reason: 'hashes of revoked sessions, deleted with them' },
  session_end_links: { decision: '021', reason: 'hashes of revoked sessions, deleted with them' },
  sandbox_bank_consents: {
    decision: '062',
    reason: "the sandbox bank's own records, the stand-in of another data fiduciary",
  },
  sandbox_bank_accesses: {
    decision: '062',
    reason: "the sandbox bank's own records, the stand-in of another data fiduciary",
  },
  sandbox_payment_links: {
    decision: '062',
    reason: "the sandbox gateway's own records, the stand-in of another data fiduciary",
  },
  audit_events: {
    decision: '063',
    reason: 'an append-only audit log, kept at least a year, by a plain id',
    outlivesAccount: true,
  },
};

/** How a table's column points at a customer's row, or at a row of a table that does. */
export type Reference =
  /** A foreign key, or a column named after a table (`order_id`) that is not one. */
  | { kind: 'row'; columns: string[]; parent: string; parentColumns: string[] }
  /** `customer_id` without a foreign key. */
  | { kind: 'id'; column: string }
  /** An e-mail address, which names a customer as well as an id does. */
  | { kind: 'email'; column: string }
  /** Another column about the customer (`customer`, `customer_name`): no row can be matched by it. */
  | { kind: 'about'; column: string };

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function readCatalog(db: Executor) {
  const columns = rowsOf<{ table: string; column: string }>(
    await db.execute(sql`
      SELECT c.table_name AS "table", c.column_name AS "column"
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`),
  );
  const keys = rowsOf<{ table: string; columns: string; parent: string; parentColumns: string }>(
    await db.execute(sql`
      SELECT child.relname AS "table", parent.relname AS "parent",
        (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(con.conkey)
           WITH ORDINALITY AS k(n, i)
           JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n) AS "columns",
        (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(con.confkey)
           WITH ORDINALITY AS k(n, i)
           JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n) AS "parentColumns"
      FROM pg_constraint con
      JOIN pg_class child ON child.oid = con.conrelid
      JOIN pg_class parent ON parent.oid = con.confrelid
      WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace`),
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) {
    // Stryker disable next-line ArrayDeclaration: a column of another name than the catalog's matches no rule below
    byTable.set(table, [...(byTable.get(table) ?? []), column]);
  }
  return {
    columnsOf: byTable,
    foreignKeys: keys.map((key) => ({
      ...key,
      columns: key.columns.split(','),
      parentColumns: key.parentColumns.split(','),
    })),
  };
}

const singular = (table: string) => table.replace(/s$/, '');

/**
 * Every table of the migrated database that refers to a customer, with how: `customers` itself; a
 * foreign key to a table found; a column `customer_id` (or `customer`, `customer_…`); a column
 * named after a table found (`order_id` of `orders`, `consent_id` of `consents`); an e-mail
 * address. Repeated until nothing new is found, so a reference through other tables counts.
 */
export async function findCustomerTables(db: Executor): Promise<Map<string, Reference[]>> {
  const { columnsOf, foreignKeys } = await readCatalog(db);
  const referencesOf = (table: string, found: ReadonlySet<string>): Reference[] => {
    // Stryker disable next-line ArrayDeclaration: every table asked about is one of the catalog's, with columns
    const columns = columnsOf.get(table) ?? [];
    const keys = foreignKeys.filter((key) => key.table === table && found.has(key.parent));
    const byKey = new Set(keys.flatMap((key) => key.columns));
    const references: Reference[] = keys.map((key) => ({
      kind: 'row',
      columns: key.columns,
      parent: key.parent,
      parentColumns: key.parentColumns,
    }));
    for (const column of columns.filter((name) => !byKey.has(name))) {
      const named = [...found].find((parent) => column === `${singular(parent)}_id`);
      if (column === 'customer_id') references.push({ kind: 'id', column });
      else if (column.includes('email')) references.push({ kind: 'email', column });
      else if (/^customer(_|$)/.test(column)) references.push({ kind: 'about', column });
      else if (named && named !== table) {
        // Stryker disable next-line ArrayDeclaration: a table found is one of the catalog's, with columns
        const parentColumns = columnsOf.get(named) ?? [];
        references.push({
          kind: 'row',
          columns: [column],
          parent: named,
          parentColumns: [parentColumns.includes(column) ? column : 'id'],
        });
      }
    }
    return references;
  };

  const found = new Set(['customers']);
  for (let grew = true; grew;) {
    grew = false;
    for (const table of columnsOf.keys()) {
      if (!found.has(table) && referencesOf(table, found).length > 0) {
        found.add(table);
        grew = true;
      }
    }
  }
  return new Map([...found].sort().map((table) => [table, referencesOf(table, found)]));
}

/**
 * Which of the table's rows are the customer's, as SQL over the catalog's references: null when no
 * column can say (a table that only describes the customer, such as a JSON copy of them).
 */
export function customerRowsWhere(
  tables: ReadonlyMap<string, Reference[]>,
  table: string,
  customer: { id: string; email: string },
  seen: ReadonlySet<string> = new Set(),
): SQL | null {
  if (table === 'customers') return sql`${sql.identifier('id')}::text = ${customer.id}`;
  const within = new Set([...seen, table]);
  const conditions: SQL[] = [];
  for (const reference of tables.get(table) ?? []) {
    if (reference.kind === 'id') {
      conditions.push(sql`${sql.identifier(reference.column)}::text = ${customer.id}`);
    } else if (reference.kind === 'email') {
      conditions.push(
        sql`lower(${sql.identifier(reference.column)}::text) = ${customer.email.toLowerCase()}`,
      );
    } else if (reference.kind === 'row' && !within.has(reference.parent)) {
      const parent = customerRowsWhere(tables, reference.parent, customer, within);
      if (!parent) continue;
      const list = (columns: string[]) =>
        sql.join(
          columns.map((column) => sql`${sql.identifier(column)}::text`),
          sql`, `,
        );
      conditions.push(
        sql`(${list(reference.columns)}) IN (SELECT ${list(reference.parentColumns)} FROM ${sql.identifier(reference.parent)} WHERE ${parent})`,
      );
    }
  }
  return conditions.length > 0 ? sql.join(conditions, sql` OR `) : null;
}

/** How many rows of the table are the customer's; null when the table cannot say. */
export async function countCustomerRows(
  db: Executor,
  tables: ReadonlyMap<string, Reference[]>,
  table: string,
  customer: { id: string; email: string },
): Promise<number | null> {
  const where = customerRowsWhere(tables, table, customer);
  if (!where) return null;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`),
  );
  return row!.n;
}
