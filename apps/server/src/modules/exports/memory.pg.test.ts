import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { liveHeap } from '../../test/heap';

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());

/** A customer with `rows` activity events in June 2026, written by the database itself. */
async function customerWithActivity(rows: number) {
  const c = await createCustomer(t);
  await t.deps.db.execute(
    `insert into activity_events (customer_id, type, title, description, status, created_at)
     select '${c.id}', 'login', 'Signed in, from "Chrome on Windows"', 'Event ' || n, 'success',
            timestamptz '2026-06-01 00:00:00+00' + n * interval '10 milliseconds'
     from generate_series(1, ${rows}) as n`,
  );
  return { ...c, headers: await authHeaders(t, c.id) };
}

/**
 * Downloads the customer's activity over real HTTP, reading the body as it arrives, and answers
 * the lines received and how far the process's live heap rose above where it stood at the start.
 */
async function downloadMeasuringHeap(headers: Record<string, string>) {
  const link = await t.app.inject({
    method: 'POST',
    url: exportPaths.link,
    headers,
    payload: { kind: 'activity', range: { from: '2026-06-01', to: '2026-06-30' } },
  });
  const before = liveHeap();
  let peak = before;
  let lines = 0;
  let chunks = 0;
  const res = await fetch(origin + link.json().url);
  expect(res.status).toBe(200);
  for await (const chunk of res.body!) {
    // each record ends in CRLF, and no cell of these holds a line break
    lines += (chunk as Uint8Array).filter((byte) => byte === 0x0a).length;
    // a reading every 20th chunk: a few across the download, each after a collection
    if (++chunks % 20 === 0) peak = Math.max(peak, liveHeap());
  }
  return { lines, rise: peak - before };
}

describe('GET /api/exports/:kind/:from/:to on PostgreSQL', () => {
  it('streams 200,000 rows in no more heap than 10,000 need', async () => {
    const small = await customerWithActivity(10_000);
    const large = await customerWithActivity(200_000);
    // a first run warms the code paths up, so that neither measure pays for compiling them
    await downloadMeasuringHeap(small.headers);

    const few = await downloadMeasuringHeap(small.headers);
    const many = await downloadMeasuringHeap(large.headers);
    expect(few.lines).toBe(10_001);
    expect(many.lines).toBe(200_001);
    // the file is about 16 MB; held whole, with its rows, the heap would rise by several times that
    expect(many.rise - few.rise).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});
