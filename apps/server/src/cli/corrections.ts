import { correctableFieldLabels } from '@portal/contract';
import { decideCorrection, waitingCorrections } from '../modules/privacy/corrections';
import { CliError, asCli, parseOptions, requireOption, type CliCommand } from './command';

export const correctionCommands: Record<string, CliCommand> = {
  'corrections:list': {
    summary:
      'Lists the correction requests waiting for a decision, soonest due first, the overdue marked',
    async run(args, deps) {
      parseOptions(args, {});
      const waiting = await waitingCorrections(deps.db);
      if (waiting.length === 0) {
        console.log('No correction request waits for a decision.');
        return;
      }
      const now = deps.clock.now().getTime();
      for (const request of waiting) {
        const late = new Date(request.respondBy).getTime() < now ? '  OVERDUE' : '';
        const why = request.reason ? `  (${request.reason.replace(/\s+/g, ' ')})` : '';
        console.log(
          `${request.reference}  due ${request.respondBy}${late}  ${correctableFieldLabels[request.field]}: ${request.currentValue} -> ${request.requestedValue}${why}`,
        );
      }
    },
  },
  'corrections:decide': {
    summary:
      'Corrects (--correct) or declines (--decline --note "why") a request by its reference; the customer is mailed the outcome',
    async run(args, deps) {
      const values = parseOptions(args, {
        reference: { type: 'string' },
        correct: { type: 'boolean' },
        decline: { type: 'boolean' },
        note: { type: 'string' },
      });
      const reference = requireOption(values, 'reference').toUpperCase();
      if (Boolean(values.correct) === Boolean(values.decline)) {
        throw new CliError('give exactly one of --correct and --decline');
      }
      const outcome = values.correct ? 'Corrected' : 'Declined';
      await asCli(() => decideCorrection(deps, reference, { outcome, note: values.note }));
      console.log(`${reference} ${outcome.toLowerCase()}; the customer is mailed the outcome.`);
    },
  },
};
