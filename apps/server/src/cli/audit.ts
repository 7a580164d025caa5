import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { isoDateDay } from '@portal/contract';
import type { AppDeps } from '../deps';
import { DAY_MS } from '../lib/clock';
import { auditBatches, type AuditRow } from '../modules/audit/export';
import { recordAudit, type AuditOutcome, type AuditReason } from '../modules/audit/record';
import { csvRow } from '../modules/exports/csv';
import { CliError, parseOptions, requireOption, type CliCommand } from './command';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Runs an operator command and appends its line to the audit log: the command's name and
 * whether it did everything, never its arguments, which may hold a password or an address.
 */
export async function runAudited(deps: Deps, command: string, work: () => Promise<void>) {
  const record = (outcome: AuditOutcome, reason?: AuditReason) =>
    recordAudit(deps.db, deps.clock, {
      actor: 'operator',
      customerId: null,
      action: 'operator_command',
      outcome,
      details: reason ? { command, reason } : { command },
    });
  try {
    await work();
  } catch (error) {
    // the command's own error is the one to tell: a database that cannot take the line is
    // likely its cause
    await record('failure', error instanceof CliError ? 'refused' : 'failed').catch(() => {});
    throw error;
  }
  await record('success');
}

const FORMATS = ['csv', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (value: string): value is Format => (FORMATS as readonly string[]).includes(value);

const COLUMNS = [
  'id',
  'occurred_at',
  'actor_kind',
  'actor_id',
  'customer_id',
  'action',
  'outcome',
  'client_network',
  'details',
] as const;

const fieldsOf = (row: AuditRow) => ({
  id: row.id,
  occurred_at: row.occurredAt.toISOString(),
  actor_kind: row.actorKind,
  actor_id: row.actorId,
  customer_id: row.customerId,
  action: row.action,
  outcome: row.outcome,
  client_network: row.clientNetwork,
  details: row.details,
});

const csvLine = (row: AuditRow) => {
  const fields = fieldsOf(row);
  return csvRow(
    COLUMNS.map((column) => {
      const value = fields[column];
      return value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);
    }),
  );
};

const jsonLine = (row: AuditRow) => `${JSON.stringify(fieldsOf(row))}\n`;

/** A day given as YYYY-MM-DD, and its number of days since 1970-01-01 (UTC). */
function dayOption(values: Record<string, unknown>, name: 'from' | 'to') {
  const text = requireOption(values, name);
  const day = isoDateDay(text);
  if (day === null) throw new CliError(`--${name} must be a date as YYYY-MM-DD`);
  return { text, day };
}

/**
 * Writes the audit log of a range of days (UTC, both included) to `out`, as CSV or JSON Lines,
 * batch by batch at the pace `out` takes it; then records the export itself.
 */
export async function exportAuditCommand(deps: Deps, args: string[], out: Writable) {
  const values = parseOptions(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    format: { type: 'string', default: 'csv' },
  });
  const from = dayOption(values, 'from');
  const to = dayOption(values, 'to');
  if (to.day < from.day) throw new CliError('--to must be on or after --from');
  const format = values.format.trim();
  if (!isFormat(format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}`);

  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let rows = 0;
  if (format === 'csv') await write(csvRow(COLUMNS));
  const range = { from: new Date(from.day * DAY_MS), to: new Date((to.day + 1) * DAY_MS) };
  for await (const batch of auditBatches(deps.db, range)) {
    await write(batch.map(format === 'csv' ? csvLine : jsonLine).join(''));
    rows += batch.length;
  }
  await recordAudit(deps.db, deps.clock, {
    actor: 'operator',
    customerId: null,
    action: 'audit_exported',
    details: { from: from.text, to: to.text, format, rows },
  });
}

export const auditCommands: Record<string, CliCommand> = {
  'audit:export': {
    summary:
      'Write the audit log of a range of days (UTC, both included) to standard output: --from YYYY-MM-DD --to YYYY-MM-DD [--format csv|jsonl]',
    run: (args, deps) => exportAuditCommand(deps, args, process.stdout),
  },
};
