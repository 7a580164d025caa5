import path from 'node:path';
import { sandboxesInUse, type Config } from '../config';
import { DEMO_ACCOUNT } from '../demo/seed';
import { outboxDir } from '../deps';
import { SANDBOX_GATEWAY_PREFIX } from '../adapters/payment-gateway';
import {
  SANDBOX_BANK_CLIENT_ID,
  SANDBOX_BANK_PREFIX,
  SANDBOX_BANK_SECRET_KEY,
} from './bank/settings';
import { SANDBOX_IRP_PREFIX } from './irp/settings';

export interface StartNotices {
  /** For the person who started the portal. */
  info: string[];
  /** Printed at every start, and logged, while production runs anything of the demo. */
  warnings: string[];
}

/**
 * What the portal says at start about its sandboxes and the demo account: where things are and
 * where their credentials live, never a password or secret itself.
 */
export function startNotices(config: Config, { demoSeeded }: { demoSeeded: boolean }) {
  const notices: StartNotices = { info: [], warnings: [] };
  const production = config.NODE_ENV === 'production';
  const sandboxes = sandboxesInUse(config);
  const bankCredentials =
    `its page asks for user "${SANDBOX_BANK_CLIENT_ID}" and the password ` +
    `"${SANDBOX_BANK_SECRET_KEY}" in ${path.join(config.DATA_DIR, 'secrets.json')}`;
  const gatewayLine = `the sandbox payment gateway at ${config.PUBLIC_URL}${SANDBOX_GATEWAY_PREFIX}`;
  const bankLine = `the sandbox bank at ${config.PUBLIC_URL}${SANDBOX_BANK_PREFIX}`;
  const irpLine = `the sandbox IRP at ${config.PUBLIC_URL}${SANDBOX_IRP_PREFIX}`;
  const inUse = [
    sandboxes.gateway && gatewayLine,
    sandboxes.bank && bankLine,
    sandboxes.irp && irpLine,
  ].filter((line): line is string => Boolean(line));

  if (production && inUse.length > 0) {
    notices.warnings.push(
      'WARNING: SANDBOX=on in production. This portal is a public demo:',
      ...(sandboxes.gateway
        ? [
            `  - ${gatewayLine} takes no money: anyone can pay any order on its checkout page, so every plan is free;`,
          ]
        : []),
      ...(sandboxes.bank ? [`  - ${bankLine} decides banking consents; ${bankCredentials};`] : []),
      ...(sandboxes.irp
        ? [
            `  - ${irpLine} registers nothing with GSTN: the IRNs it gives are worth no input tax credit;`,
          ]
        : []),
      sandboxes.irp
        ? '  For real use, configure PAYMENT_GATEWAY_*, CONSENT_PROVIDER_* and E_INVOICE_* and remove SANDBOX=on.'
        : '  For real use, configure PAYMENT_GATEWAY_* and CONSENT_PROVIDER_* and remove SANDBOX=on.',
    );
  } else if (inUse.length > 0) {
    notices.info.push(
      `Sandbox in use: ${inUse.slice(0, -1).join(', ')}${inUse.length > 1 ? ' and ' : ''}${inUse.at(-1)}.`,
      ...(sandboxes.bank ? [`The sandbox bank: ${bankCredentials}.`] : []),
    );
  }
  if (production && config.SEED_DEMO) {
    notices.warnings.push(
      `WARNING: SEED_DEMO=true in production: an empty database gets the demo account ${DEMO_ACCOUNT.email}, whose password is published in README.md.`,
    );
  }
  if (demoSeeded) {
    const mail = config.MAIL_URL ? 'sent by SMTP' : `written to ${outboxDir(config)}`;
    notices.info.push(
      `Demo account created: sign in at ${config.PUBLIC_URL}/login with the details in README.md ("Quick start"); the verification code is e-mailed (${mail}).`,
    );
  }
  return notices;
}
