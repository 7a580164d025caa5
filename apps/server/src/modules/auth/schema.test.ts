import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { openTestDatabase } from '../../test/database';
import {
  declaredOn,
  declaredPrimaryKey,
  migratedOn,
  migratedPrimaryKey,
} from '../../test/schema-indexes';
import {
  accountThrottles,
  loginChallenges,
  passwordResetTokens,
  rateLimitWindows,
  refreshTokens,
  seenBrowsers,
  sessions,
} from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the sign-in tables of the migrated database', () => {
  // the migrations are generated from these declarations: one the database lacks means a
  // migration drizzle-kit has not written yet, and a lookup that scans its whole table
  it.each([
    ['login_challenges', loginChallenges],
    ['sessions', sessions],
    ['refresh_tokens', refreshTokens],
    ['password_reset_tokens', passwordResetTokens],
    ['account_throttles', accountThrottles],
    ['rate_limit_windows', rateLimitWindows],
    ['seen_browsers', seenBrowsers],
  ])('have exactly the keys and indexes the schema declares for %s', async (name, table) => {
    expect(await migratedOn(database, name)).toEqual(declaredOn(table));
    expect(await migratedPrimaryKey(database, name)).toEqual(declaredPrimaryKey(table));
  });

  it('find a customer’s login challenges by an index, and each by its token’s hash', () => {
    expect(declaredOn(loginChallenges)).toEqual([
      {
        table: 'login_challenges',
        name: 'login_challenges_customer_idx',
        kind: 'index',
        columns: ['customer_id'],
      },
      {
        table: 'login_challenges',
        name: 'login_challenges_tokenHash_unique',
        kind: 'unique constraint',
        columns: ['token_hash'],
      },
    ]);
  });
});
