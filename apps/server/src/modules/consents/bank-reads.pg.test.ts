import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { sandboxBankAccesses, sandboxBankConsents } from '../../sandbox/bank/schema';
import { consentAccesses, consents } from './schema';
import { approvedTestConsent, partnerRead } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function bankOutcomes(consentId: string) {
  const rows = await t.deps.db
    .select({ outcome: sandboxBankAccesses.outcome, n: count() })
    .from(sandboxBankAccesses)
    .where(eq(sandboxBankAccesses.consentId, consentId))
    .groupBy(sandboxBankAccesses.outcome);
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
}

async function portalAccess(consentId: string) {
  const [row] = await t.deps.db
    .select({ access: consentAccesses })
    .from(consents)
    .innerJoin(consentAccesses, eq(consentAccesses.consentRef, consents.id))
    .where(eq(consents.consentId, consentId));
  return row!.access;
}

const reads = (apiKey: string, consentId: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    partnerRead(t, apiKey, consentId, i % 2 === 0 ? 'accounts' : 'transactions'),
  );

describe('partner reads made at once (PostgreSQL)', () => {
  it('records 100 reads at once once each, at the bank and in the portal, and refuses the next', async () => {
    // 24 reads a day is the most a consent allows: five consents take 20 reads each
    const made = await Promise.all(
      Array.from({ length: 5 }, () => approvedTestConsent(t, { fetchesPerDay: 20 })),
    );
    const answers = await Promise.all(made.flatMap((c) => reads(c.apiKey, c.consentId, 20)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    for (const { apiKey, consentId } of made) {
      const left = answers
        .filter((a) => a.json().data.consentId === consentId)
        .map((a) => a.json().data.fetchesLeftToday)
        .sort((a, b) => a - b);
      expect(left).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(await bankOutcomes(consentId)).toEqual({ Allowed: 20 });
      const [bank] = await t.deps.db
        .select()
        .from(sandboxBankConsents)
        .where(eq(sandboxBankConsents.consentId, consentId));
      expect(bank!.fetchesInWindow).toBe(20);
      expect(await portalAccess(consentId)).toMatchObject({
        fetchesInWindow: 20,
        lastAccessedAt: t.clock.now(),
      });
      expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(429);
      expect(await bankOutcomes(consentId)).toEqual({ Allowed: 20 });
    }
  });

  it('allows exactly the reads a day when 100 come at once to one consent', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, { fetchesPerDay: 24 });
    const answers = await Promise.all(reads(apiKey, consentId, 100));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(24);
    expect(codes.filter((c) => c === 429)).toHaveLength(76);
    const outcomes = await bankOutcomes(consentId);
    expect(outcomes.Allowed).toBe(24);
    // a refusal the portal's guard answered never reached the bank; the others are on its record
    expect((outcomes.FrequencyExceeded ?? 0) + 24).toBeLessThanOrEqual(100);
    expect(
      Object.keys(outcomes).filter((o) => o !== 'Allowed' && o !== 'FrequencyExceeded'),
    ).toEqual([]);
    expect((await portalAccess(consentId)).fetchesInWindow).toBe(24);
  });
});
