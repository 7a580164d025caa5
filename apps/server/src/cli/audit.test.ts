import { Writable } from 'node:stream';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { auditEvents } from '../modules/audit/schema';
import { AUDIT_EXPORT_BATCH_SIZE } from '../modules/audit/export';
import { exportAuditCommand } from './audit';
import { runAdmin } from './test-support';

const IN_RANGE = 1_100;
const RANGE = ['--from', '2026-03-10', '--to', '2026-03-11'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // 1,100 events on 10 and 11 March 2026 (UTC), three batches; one just before, one just after
  await t.deps.db.execute(sql`
    INSERT INTO audit_events (occurred_at, actor_kind, actor_id, customer_id, action, outcome,
      client_network, details)
    SELECT timestamptz '2026-03-10 00:00:00+00' + n * interval '150 seconds', 'customer',
      '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001',
      'sign_in', 'success', '203.0.113.0/24', jsonb_build_object('sessionId', 'session-' || n)
    FROM generate_series(0, ${IN_RANGE - 1}) AS n`);
  await t.deps.db.execute(sql`
    INSERT INTO audit_events (occurred_at, actor_kind, action, outcome)
    VALUES (timestamptz '2026-03-09 23:59:59.999+00', 'system', 'audit_purged', 'success'),
           (timestamptz '2026-03-12 00:00:00+00', 'system', 'audit_purged', 'success')`);
});
afterAll(() => t.close());

/** Runs the command line, and answers what it wrote to standard output, write by write. */
async function exported(args: string[]) {
  const writes: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    writes.push(String(chunk));
    return true;
  });
  try {
    return { ...(await runAdmin(t, args)), writes };
  } finally {
    stdout.mockRestore();
  }
}

const operatorRows = () =>
  t.deps.db
    .select()
    .from(auditEvents)
    .where(inArray(auditEvents.action, ['operator_command', 'audit_exported']))
    .orderBy(desc(auditEvents.id));

describe('npm run admin -- audit:export', () => {
  it('streams the days asked for, both included, as CSV, a batch a write, oldest first', async () => {
    const { code, err, writes } = await exported(['audit:export', ...RANGE]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    // the header, then one write a batch of 500: never the whole range at once
    expect(writes).toHaveLength(1 + Math.ceil(IN_RANGE / AUDIT_EXPORT_BATCH_SIZE));
    const lines = writes.join('').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(IN_RANGE + 2);
    expect(lines[0]).toBe(
      'id,occurred_at,actor_kind,actor_id,customer_id,action,outcome,client_network,details',
    );
    const customer = '00000000-0000-4000-8000-000000000001';
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,2026-03-10T00:00:00.000Z,customer,${customer},${customer},sign_in,success,203.0.113.0/24,"{""sessionId"": ?""session-0""}"$`,
      ),
    );
    expect(lines[IN_RANGE]).toContain('2026-03-11T21:47:30.000Z');
    const times = lines.slice(1, -1).map((line) => line.split(',')[1]!);
    expect(times).toEqual([...times].sort());
  });

  it('writes JSON Lines, one event a line, with its details as an object', async () => {
    const { code, writes } = await exported(['audit:export', ...RANGE, '--format', 'jsonl']);
    expect(code).toBe(0);
    expect(writes).toHaveLength(Math.ceil(IN_RANGE / AUDIT_EXPORT_BATCH_SIZE));
    const events = writes
      .join('')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toHaveLength(IN_RANGE);
    expect(events[0]).toMatchObject({
      occurred_at: '2026-03-10T00:00:00.000Z',
      actor_kind: 'customer',
      action: 'sign_in',
      outcome: 'success',
      client_network: '203.0.113.0/24',
      details: { sessionId: 'session-0' },
    });
    expect(events.at(-1)).toMatchObject({ details: { sessionId: `session-${IN_RANGE - 1}` } });
  });

  it('records the export itself, with its range, format and number of rows', async () => {
    await exported(['audit:export', ...RANGE, '--format', 'jsonl']);
    const [command, exportedRow] = await operatorRows();
    expect(exportedRow).toMatchObject({
      actorKind: 'operator',
      actorId: null,
      customerId: null,
      action: 'audit_exported',
      outcome: 'success',
      details: { from: '2026-03-10', to: '2026-03-11', format: 'jsonl', rows: IN_RANGE },
    });
    expect(command).toMatchObject({
      actorKind: 'operator',
      action: 'operator_command',
      outcome: 'success',
      details: { command: 'audit:export' },
    });
  });

  it('waits for a slow reader instead of piling rows up in memory', async () => {
    let received = '';
    let ignoredBackpressure = false;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.toString();
        setTimeout(done, 5);
      },
    });
    const write = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      // writing while the reader asked to wait for 'drain' would buffer without limit
      if (slow.writableNeedDrain) ignoredBackpressure = true;
      return write(chunk);
    }) as typeof slow.write;
    await exportAuditCommand(t.deps, [...RANGE, '--format', 'csv'], slow);
    await new Promise<void>((resolve) => slow.end(resolve));
    expect(ignoredBackpressure).toBe(false);
    expect(received.split('\r\n')).toHaveLength(IN_RANGE + 2);
  });

  it('refuses a bad range or format with one line, and records the refusal', async () => {
    for (const [args, message] of [
      [['--from', '2026-02-30', '--to', '2026-03-01'], '--from must be a date as YYYY-MM-DD'],
      [['--from', '2026-03-11', '--to', '2026-03-10'], '--to must be on or after --from'],
      [[...RANGE, '--format', 'xml'], '--format must be one of csv, jsonl'],
      [['--from', '2026-03-10'], '--to is required'],
    ] as const) {
      const { code, err, writes } = await exported(['audit:export', ...args]);
      expect(code).toBe(1);
      expect(err).toEqual([`Error: ${message}`]);
      expect(writes).toEqual([]);
      const [row] = await operatorRows();
      expect(row).toMatchObject({
        action: 'operator_command',
        outcome: 'failure',
        details: { command: 'audit:export', reason: 'refused' },
      });
    }
  });

  it('is listed by help', async () => {
    const { code, out } = await runAdmin(t, ['help']);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(
      /audit:export\s+Write the audit log of a range of days \(UTC, both included\) to standard output: --from YYYY-MM-DD --to YYYY-MM-DD \[--format csv\|jsonl\]/,
    );
  });
});

describe('the audit log of operator commands', () => {
  it('records each command by name and outcome, and what it did, never its arguments', async () => {
    const customer = await createCustomer(t);
    const secret = 'Operator@Chosen9';
    const reset = await runAdmin(t, [
      'customers:reset-password',
      '--email',
      customer.email,
      '--password',
      secret,
    ]);
    expect(reset.code).toBe(0);
    const unknownEmail = `nobody-${customer.id.slice(0, 8)}@example.test`;
    const refused = await runAdmin(t, [
      'customers:reset-password',
      '--email',
      unknownEmail,
      '--password',
      secret,
    ]);
    expect(refused.code).toBe(1);

    const [failed, succeeded] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'operator_command'))
      .orderBy(desc(auditEvents.id))
      .limit(2);
    expect(succeeded).toMatchObject({
      actorKind: 'operator',
      actorId: null,
      outcome: 'success',
      details: { command: 'customers:reset-password' },
    });
    expect(failed).toMatchObject({
      actorKind: 'operator',
      outcome: 'failure',
      details: { command: 'customers:reset-password', reason: 'refused' },
    });
    const [done] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.customerId, customer.id));
    expect(done).toMatchObject({
      actorKind: 'operator',
      actorId: null,
      action: 'password_reset',
      outcome: 'success',
      details: { via: 'operator' },
    });

    const everything = JSON.stringify(await t.deps.db.select().from(auditEvents)).toLowerCase();
    for (const argument of [secret, customer.email, unknownEmail]) {
      expect(everything).not.toContain(argument.toLowerCase());
    }
  });
});
