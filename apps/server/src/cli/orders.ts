import { reconcilePayments } from '../jobs/reconcile-payments';
import { parseOptions, type CliCommand } from './command';

export const orderCommands: Record<string, CliCommand> = {
  'orders:reconcile': {
    summary: 'Asks the payment gateway about recent unsettled orders now and settles them',
    async run(args, deps) {
      parseOptions(args, {});
      const { checked, settled } = await reconcilePayments(deps);
      console.log(`Orders checked: ${checked}, settled: ${settled}`);
    },
  },
};
