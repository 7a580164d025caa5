// Hot-path reads as fixed SQL texts run on the driver itself: no query is built per request, and
// on PostgreSQL each text is a named prepared statement, parsed and planned once per connection.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client';

export interface Statement {
  /** Names the prepared statement on PostgreSQL; unique per text. */
  name: string;
  text: string;
}

type Driver = pg.Pool | PGlite;

const isPool = (client: Driver): client is pg.Pool => 'totalCount' in client;

/** Runs one fixed statement with its values, in one round trip, outside any transaction. */
export async function runStatement<Row>(
  db: Database,
  statement: Statement,
  values: unknown[],
): Promise<Row[]> {
  const client = (db as unknown as { $client: Driver }).$client;
  if (isPool(client)) {
    const result = await client.query({ name: statement.name, text: statement.text, values });
    return result.rows as Row[];
  }
  const result = await client.query<Row>(statement.text, values);
  return result.rows;
}
