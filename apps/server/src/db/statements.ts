// Hot-path reads as fixed SQL texts run on the driver itself: no query is built per request, and
// each text is a named prepared statement, parsed once per connection (PGlite has one).
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client';
import { inTurnOn } from './fair-turns';

export interface Statement {
  /** Names the prepared statement; unique per text. */
  name: string;
  text: string;
}

type Driver = pg.Pool | PGlite;

/**
 * A parameter that the planner costs as one of a plan made for any value, in a plan made for
 * this call's values too. PostgreSQL plans a statement for its values at the first five calls,
 * then keeps a plan made for any values only if that one looks no dearer. For a customer with
 * far more rows than most, a page's own plan looks cheaper (its LIMIT is a smaller share of the
 * customer's rows), so the statement was planned anew at every call. Behind a subquery, the
 * customer is costed alike in both plans and the plan is kept
 * (docs/decisions/051-one-plan-for-every-customer.md).
 */
export const costedForAnyValue = (parameter: string) => `(SELECT ${parameter})`;

/** Runs one fixed read with its values, in one round trip, outside any transaction. */
export async function runStatement<Row>(
  db: Database,
  statement: Statement,
  values: unknown[],
): Promise<Row[]> {
  const client = (db as unknown as { $client: Driver }).$client;
  if (client instanceof PGlite) return runOnPglite<Row>(client, statement, values);
  const result = await client.query({ name: statement.name, text: statement.text, values });
  return result.rows as Row[];
}

const { serialize } = protocol;
/** The parameter types of each statement prepared on a PGlite, by its name. */
const preparedOn = new WeakMap<PGlite, Map<string, number[]>>();

/**
 * PostgreSQL keeps one generic plan for each of these texts after five calls (048), but PGlite
 * costs the generic plan of the consents page at twice a custom one and plans it anew at every
 * call, though the generic plan runs as fast. Its calls use the generic plan, and only they.
 */
const GENERIC_PLANS = serialize.query('SET plan_cache_mode = force_generic_plan');
const PLANS_AS_BEFORE = serialize.query('RESET plan_cache_mode');

/** Several protocol messages as one, for one call into the backend. */
function inOne(messages: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(messages.reduce((sum, message) => sum + message.length, 0));
  let at = 0;
  for (const message of messages) {
    bytes.set(message, at);
    at += message.length;
  }
  return bytes;
}

/** Parses `statement` as a named statement on first use; its parameters' type ids. */
async function prepareOnPglite(db: PGlite, statement: Statement): Promise<number[]> {
  let prepared = preparedOn.get(db);
  if (!prepared) preparedOn.set(db, (prepared = new Map()));
  let types = prepared.get(statement.name);
  if (!types) {
    const described = await db.execProtocolStream(
      inOne([
        serialize.parse({ name: statement.name, text: statement.text }),
        serialize.describe({ type: 'S', name: statement.name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    types = parse.parseDescribeStatementResults(described);
    prepared.set(statement.name, types);
  }
  return types;
}

/**
 * PGlite's query() parses and plans its text at every call, in six calls into the backend. Here
 * a text is parsed once, and a call sends bind, describe, execute and sync as one message, with
 * the generic plan asked for around them. It takes the client's turn (db/fair-turns.ts) and
 * PGlite's locks, and checks that PGlite is open, as query() does: it never runs inside another
 * caller's transaction, nor after close. Reads only: nothing to sync to disk.
 */
function runOnPglite<Row>(db: PGlite, statement: Statement, values: unknown[]): Promise<Row[]> {
  return inTurnOn(db, () =>
    db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        await db._checkReady();
        const types = await prepareOnPglite(db, statement);
        const messages = await db.execProtocolStream(
          inOne([
            GENERIC_PLANS,
            serialize.bind({
              statement: statement.name,
              values: values.map((value, i) =>
                value === null || value === undefined
                  ? null
                  : (db.serializers[types[i]!] ?? String)(value),
              ),
            }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
            PLANS_AS_BEFORE,
          ]),
          { syncToFs: false },
        );
        // the results of the SET, the statement and the RESET
        return parse.parseResults(messages, db.parsers)[1]!.rows as Row[];
      }),
    ),
  );
}
