import { JOB_NAMES, type JobName } from '../adapters/queue';
import { CliError, parseOptions, requireOption, type CliCommand } from './command';

const isJobName = (name: string): name is JobName =>
  (JOB_NAMES as readonly string[]).includes(name);

/** The job queue, for the operator: what waits, what failed, and sending failures back. */
export const jobCommands: Record<string, CliCommand> = {
  'jobs:status': {
    summary: 'Per queue: jobs waiting, running and failed, and since when the oldest waits',
    async run(args, deps) {
      parseOptions(args, {});
      const width = Math.max(...JOB_NAMES.map((name) => name.length));
      for (const row of await deps.queue.counts()) {
        const oldest = row.oldestWaiting
          ? `oldest waiting since ${row.oldestWaiting.toISOString()}`
          : 'none waiting';
        console.log(
          `${row.name.padEnd(width)}  queued ${row.queued}  active ${row.active}  failed ${row.failed}  ${oldest}`,
        );
      }
    },
  },
  'jobs:retry': {
    summary: 'Put the failed jobs of a queue back on it, with fresh retries: --queue mail',
    async run(args, deps) {
      const values = parseOptions(args, { queue: { type: 'string' } });
      const name = requireOption(values, 'queue');
      if (!isJobName(name)) {
        throw new CliError(`Unknown queue "${name}": one of ${JOB_NAMES.join(', ')}`);
      }
      const moved = await deps.queue.retryFailed(name);
      console.log(
        moved === 0
          ? `No failed jobs in ${name}.`
          : `${moved} failed job${moved === 1 ? '' : 's'} of ${name} queued again.`,
      );
    },
  },
};
