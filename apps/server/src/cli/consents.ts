import {
  authoriseBankConsent,
  listBankConsents,
  rejectBankConsent,
  SandboxBankError,
} from '../sandbox/bank/service';
import { CliError, parseOptions, requireOption, type CliCommand } from './command';

async function atBank<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SandboxBankError) throw new CliError(error.message);
    throw error;
  }
}

function requireSandbox(deps: Parameters<CliCommand['run']>[1]) {
  if (!deps.consents.sandboxBank) {
    throw new CliError(
      'CONSENT_PROVIDER_URL points at a real bank; the sandbox bank is not in use',
    );
  }
}

/** The customer's side of the built-in sandbox bank, for tests and demos. */
export const consentCommands: Record<string, CliCommand> = {
  'consents:pending': {
    summary: 'List consent requests waiting at the sandbox bank',
    async run(args, deps) {
      parseOptions(args, {});
      requireSandbox(deps);
      const rows = (await listBankConsents(deps.db, 500)).filter(
        (row) => row.status === 'AwaitingAuthorisation',
      );
      if (rows.length === 0) return console.log('No consent requests are waiting.');
      for (const row of rows) {
        console.log(
          `${row.consentId}  |  ${row.permissions.join(', ')}  |  expires ${row.expirationDateTime.toLocaleString('en-IN')}`,
        );
      }
    },
  },
  'consents:authorise': {
    summary: 'Authorise a pending consent at the sandbox bank: --consent sbk-intent-…',
    async run(args, deps) {
      const values = parseOptions(args, { consent: { type: 'string' } });
      requireSandbox(deps);
      const row = await atBank(() =>
        authoriseBankConsent(deps.db, deps.clock, requireOption(values, 'consent')),
      );
      console.log(
        `Consent ${row.consentId} authorised until ${row.expirationDateTime.toLocaleString('en-IN')}.`,
      );
    },
  },
  'consents:reject': {
    summary: 'Reject a pending consent at the sandbox bank: --consent sbk-intent-…',
    async run(args, deps) {
      const values = parseOptions(args, { consent: { type: 'string' } });
      requireSandbox(deps);
      const row = await atBank(() =>
        rejectBankConsent(deps.db, deps.clock, requireOption(values, 'consent')),
      );
      console.log(`Consent ${row.consentId} rejected.`);
    },
  },
};
