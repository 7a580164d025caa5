import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { seedDemoIfEmpty } from './seed';
import { sandboxBankAccesses, sandboxBankConsents } from '../sandbox/bank/schema';
import { consentAccesses, consents } from '../modules/consents/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo consents at the sandbox bank', () => {
  it('hold at the bank the terms the portal shows, and each seeded last access is on the bank’s record', async () => {
    expect(await seedDemoIfEmpty(t.deps)).toBe(true);
    const rows = await t.deps.db
      .select({ portal: consents, bank: sandboxBankConsents, access: consentAccesses })
      .from(consents)
      .innerJoin(sandboxBankConsents, eq(sandboxBankConsents.consentId, consents.consentId))
      .leftJoin(consentAccesses, eq(consentAccesses.consentRef, consents.id));
    expect(rows.length).toBeGreaterThanOrEqual(25);
    expect(rows.filter((r) => r.bank.purpose !== null).length).toBeGreaterThan(rows.length / 2);
    for (const { portal, bank } of rows) {
      expect([bank.purpose, bank.transactionFromDateTime, bank.transactionToDateTime]).toEqual([
        portal.purpose,
        portal.transactionFrom,
        portal.transactionTo,
      ]);
      expect(bank.fetchesPerDay).toBe(portal.fetchesPerDay);
      expect(bank.dataLifeDays).toBe(portal.dataLifeDays);
    }
    expect(rows.some((r) => r.portal.dataLifeDays !== null)).toBe(true);
    const reads = await t.deps.db.select().from(sandboxBankAccesses);
    const accessed = rows.filter((r) => r.access);
    expect(accessed.length).toBeGreaterThan(0);
    expect(reads).toHaveLength(accessed.length);
    for (const { bank, access } of accessed) {
      const read = reads.find((r) => r.consentId === bank.consentId);
      expect(read).toMatchObject({ outcome: 'Allowed', accessedAt: access!.lastAccessedAt });
      expect(access!.fetchesTotal).toBe(reads.filter((r) => r.consentId === bank.consentId).length);
    }
  });
});
