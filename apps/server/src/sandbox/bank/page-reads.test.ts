import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { sandboxBankAuthorization } from './routes';
import { authoriseBankConsent } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const bankPage = () =>
  t.app.inject({
    method: 'GET',
    url: '/sandbox/bank',
    headers: { authorization: sandboxBankAuthorization(t.deps.consents.sandboxBank!) },
  });

const rowOf = (html: string, consentId: string) =>
  html.split('<tr>').find((row) => row.includes(consentId))!;

describe('GET /sandbox/bank', () => {
  it('shows each consent’s terms and what the bank recorded of its reads', async () => {
    const { provider } = t.deps.consents;
    const read = await provider.createConsent({
      permissions: ['ReadAccountsBasic'],
      transactionFrom: new Date('2026-04-01T00:00:00+05:30'),
      transactionTo: new Date('2026-05-01T00:00:00+05:30'),
      purpose: 'Books <b>& GST</b>',
      fetchesPerDay: 1,
    });
    await authoriseBankConsent(t.deps.db, t.clock, read.consentId);
    t.clock.set(new Date('2026-06-01T10:00:00Z'));
    await provider.readData(read.consentId, { resource: 'accounts' });
    await expect(provider.readData(read.consentId, { resource: 'accounts' })).rejects.toThrow(
      'allows 1 reads a day',
    );
    const unread = await provider.createConsent({ permissions: ['ReadBalances'] });

    const res = await bankPage();
    expect(res.statusCode).toBe(200);
    const row = rowOf(res.body, read.consentId);
    expect(row).toContain('Purpose: Books &lt;b&gt;&amp; GST&lt;/b&gt;');
    expect(row).toContain('Transactions: 1 Apr 2026 to 1 May 2026');
    expect(row).toContain('Reads a day: 1');
    expect(row).toContain('1 allowed, 1 refused<br>Last: 1 Jun 2026, 3:30');
    const other = rowOf(res.body, unread.consentId);
    expect(other).toContain('Purpose: Not stated<br>Transactions: Any period<br>Reads a day: 4');
    expect(other).toContain('None yet');
  });
});
