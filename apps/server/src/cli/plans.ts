import { formatPaise, rupeesToPaise } from '@portal/contract';
import { createPlan, listAllPlans, retirePlan } from '../modules/plans/service';
import { asCli, CliError, parseOptions, requireOption, type CliCommand } from './command';

function positiveInt(values: Record<string, unknown>, name: string): number {
  const raw = requireOption(values, name);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`--${name} must be a positive whole number`);
  return n;
}

export const planCommands: Record<string, CliCommand> = {
  'plans:create': {
    summary:
      'Adds a plan: --name N --type Single|Multi --companies N --days N --amount RUPEES (base, before GST)',
    async run(args, deps) {
      const v = parseOptions(args, {
        name: { type: 'string' },
        type: { type: 'string' },
        companies: { type: 'string' },
        days: { type: 'string' },
        amount: { type: 'string' },
      });
      const amount = Number(requireOption(v, 'amount'));
      if (
        !Number.isFinite(amount) ||
        amount <= 0 ||
        Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6
      ) {
        throw new CliError(
          '--amount must be a positive amount in rupees with at most two decimals',
        );
      }
      const type = requireOption(v, 'type');
      if (type !== 'Single' && type !== 'Multi')
        throw new CliError('--type must be Single or Multi');
      const plan = await asCli(() =>
        createPlan(deps.db, deps.clock, {
          planName: requireOption(v, 'name'),
          planType: type,
          noOfCompany: positiveInt(v, 'companies'),
          durationDays: positiveInt(v, 'days'),
          amountPaise: rupeesToPaise(amount),
        }),
      );
      console.log(`Plan created: ${plan.id} ${plan.planName}`);
    },
  },
  'plans:list': {
    summary: 'Lists every plan, retired ones marked',
    async run(args, deps) {
      parseOptions(args, {});
      const rows = await listAllPlans(deps.db);
      if (rows.length === 0) return console.log('No plans.');
      for (const p of rows) {
        console.log(
          [
            p.id,
            p.planName,
            p.planType,
            `${p.noOfCompany} ${p.noOfCompany === 1 ? 'company' : 'companies'}`,
            `${p.durationDays} days`,
            formatPaise(p.amountPaise),
            p.retiredAt ? `retired ${p.retiredAt.toISOString()}` : 'offered',
          ].join('  '),
        );
      }
    },
  },
  'plans:retire': {
    summary: 'Stops offering a plan (its orders keep working): --id PLAN_ID',
    async run(args, deps) {
      const v = parseOptions(args, { id: { type: 'string' } });
      const plan = await asCli(() => retirePlan(deps.db, deps.clock, requireOption(v, 'id')));
      console.log(`Plan retired: ${plan.id} ${plan.planName}`);
    },
  },
};
