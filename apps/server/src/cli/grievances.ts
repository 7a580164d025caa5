import { answerGrievance, openGrievances } from '../modules/privacy/grievances';
import { asCli, parseOptions, requireOption, type CliCommand } from './command';

export const grievanceCommands: Record<string, CliCommand> = {
  'grievances:list': {
    summary: 'Lists the grievances not answered yet, soonest due first, the overdue marked',
    async run(args, deps) {
      parseOptions(args, {});
      const open = await openGrievances(deps.db);
      if (open.length === 0) {
        console.log('No grievance waits for an answer.');
        return;
      }
      const now = deps.clock.now().getTime();
      for (const grievance of open) {
        const late = new Date(grievance.respondBy).getTime() < now ? '  OVERDUE' : '';
        const message = grievance.message.replace(/\s+/g, ' ');
        console.log(
          `${grievance.reference}  due ${grievance.respondBy}${late}  ${grievance.topic}: ${message}`,
        );
      }
    },
  },
  'grievances:answer': {
    summary: 'Answers a grievance by its reference; the customer is mailed the answer',
    async run(args, deps) {
      const values = parseOptions(args, {
        reference: { type: 'string' },
        answer: { type: 'string' },
      });
      const reference = requireOption(values, 'reference').toUpperCase();
      const answer = requireOption(values, 'answer');
      await asCli(() => answerGrievance(deps, reference, answer));
      console.log(`${reference} answered; the customer is mailed the answer.`);
    },
  },
};
