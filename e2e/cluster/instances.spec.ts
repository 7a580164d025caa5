import { expect, test } from '@playwright/test';

test('haproxy shares the requests between both portal instances', async ({ request }) => {
  const served = new Set<string>();
  const statuses = new Set<number>();
  // haproxy takes an instance out while two of its readiness checks a second apart go
  // unanswered, as a busy host may leave them for a moment: the requests go on until both
  // instances have served, or the poll's time is up
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/health/ready');
        statuses.add(res.status());
        served.add(res.headers()['x-served-by'] ?? '');
        return [...served].sort();
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toEqual(['a', 'b']);
  expect([...statuses]).toEqual([200]);
});
