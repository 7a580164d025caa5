import { expect, test } from '@playwright/test';

test('haproxy shares the requests between both portal instances', async ({ request }) => {
  const served = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const res = await request.get('/api/health/ready');
    expect(res.status()).toBe(200);
    served.add(res.headers()['x-served-by'] ?? '');
  }
  expect([...served].sort()).toEqual(['a', 'b']);
});
