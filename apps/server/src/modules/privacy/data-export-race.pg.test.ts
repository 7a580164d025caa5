import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { jobsOf } from '../../test/queue';
import { dataExports } from './schema';
import { post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/privacy/data-export on PostgreSQL', () => {
  it('starts one export of 100 asked for at once by one customer, and answers the others 409', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post(t, privacyPaths.dataExport, headers)),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 202)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(99);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().message).toBe(privacyMessages.exportPreparing);
    }
    const rows = await t.deps.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.customerId, customer.id));
    expect(rows).toHaveLength(1);
    // the job of each refused request rolled back with its row
    const jobs = await jobsOf(t, 'data-export');
    expect(jobs.map((job) => job.data.exportId)).toEqual([rows[0]!.id]);
  });
});
