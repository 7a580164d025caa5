import { reconcilePayments } from '../jobs/reconcile-payments';
import { CliError, parseOptions, type CliCommand } from './command';

export const orderCommands: Record<string, CliCommand> = {
  'orders:reconcile': {
    summary: 'Asks the payment gateway about recent unsettled orders now and settles them',
    async run(args, deps) {
      parseOptions(args, {});
      const { settings } = deps.payments;
      console.log(
        settings.sandbox
          ? 'Payment gateway: the built-in sandbox, served by this process'
          : `Payment gateway: ${settings.baseUrl}`,
      );
      const { checked, settled, failures, skipped } = await reconcilePayments(deps);
      for (const { orderId, reason } of failures) console.error(`Order ${orderId}: ${reason}`);
      console.log(`Orders checked: ${checked}, settled: ${settled}, failed: ${failures.length}`);
      if (skipped > 0) {
        console.log(
          `Orders skipped: ${skipped}, being checked by another run (a lease of 2 minutes)`,
        );
      }
      if (failures.length > 0) {
        throw new CliError(
          `${failures.length} of ${checked} orders could not be reconciled (listed above)`,
        );
      }
    },
  },
};
