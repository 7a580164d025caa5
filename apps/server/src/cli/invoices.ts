import {
  CANCEL_REASON_NAMES,
  cancelRegistration,
  type CancelReasonName,
} from '../modules/invoices/cancel-registration';
import { CliError, asCli, parseOptions, requireOption, type CliCommand } from './command';

const REASONS = Object.keys(CANCEL_REASON_NAMES) as CancelReasonName[];

export const invoiceCommands: Record<string, CliCommand> = {
  'invoices:cancel-irn': {
    summary: `Cancels the IRN of a registered invoice or credit note within 24 hours of the IRP's acknowledgement (--number, --reason ${REASONS.join('|')}, --remark); later, a credit note corrects it`,
    async run(args, deps) {
      const values = parseOptions(args, {
        number: { type: 'string' },
        reason: { type: 'string' },
        remark: { type: 'string' },
      });
      const number = requireOption(values, 'number').toUpperCase();
      const reason = requireOption(values, 'reason') as CancelReasonName;
      if (!REASONS.includes(reason)) {
        throw new CliError(`--reason must be one of ${REASONS.join(', ')}`);
      }
      const remark = requireOption(values, 'remark');
      const { irn } = await asCli(() => cancelRegistration(deps, { number, reason, remark }));
      console.log(
        `IRN of ${number} cancelled at the IRP: ${irn}. The customer's Invoices page shows it cancelled.`,
      );
    },
  },
};
