import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { liveHeap } from '../test/heap';
import { exportAuditCommand } from './audit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** `rows` sign-ins on `day` (UTC), written by the database itself. */
async function eventsOn(day: string, rows: number) {
  await t.deps.db.execute(sql`
    INSERT INTO audit_events (occurred_at, actor_kind, actor_id, customer_id, action, outcome,
      client_network, details)
    SELECT ${day}::timestamptz + n * interval '1 millisecond', 'customer', gen_random_uuid(),
      gen_random_uuid(), 'sign_in', 'success', '203.0.113.0/24',
      jsonb_build_object('sessionId', gen_random_uuid())
    FROM generate_series(1, ${rows}) AS n`);
}

/** Exports the day as CSV to a reader that counts lines, and how far the live heap rose meanwhile. */
async function exportMeasuringHeap(day: string) {
  let lines = 0;
  let chunks = 0;
  const before = liveHeap();
  let peak = before;
  const counting = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines += chunk.filter((byte) => byte === 0x0a).length;
      // every 20th write of 500 rows: a few readings across the export
      if (++chunks % 20 === 0) peak = Math.max(peak, liveHeap());
      done();
    },
  });
  await exportAuditCommand(t.deps, ['--from', day, '--to', day], counting);
  return { lines, rise: peak - before };
}

describe('audit:export on PostgreSQL', () => {
  it('streams 200,000 events in no more heap than 10,000 need', async () => {
    await eventsOn('2026-01-05', 10_000);
    await eventsOn('2026-01-06', 200_000);
    // a first run warms the code paths up, so that neither measure pays for compiling them
    await exportMeasuringHeap('2026-01-05');

    const few = await exportMeasuringHeap('2026-01-05');
    const many = await exportMeasuringHeap('2026-01-06');
    expect(few.lines).toBe(10_001);
    expect(many.lines).toBe(200_001);
    // the CSV is about 40 MB; held whole, with its rows, the heap would rise by several times that
    expect(many.rise - few.rise).toBeLessThan(16 * 1024 * 1024);
  }, 180_000);
});
