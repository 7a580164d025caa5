// The portal of the end-to-end suite, started as `npm start` starts it in one process, with the
// suite's customer service beside it on the same database. Run with `node --import tsx`.
import { loadConfig } from '../apps/server/src/config.ts';
import { exitOnStartError, serveInOneProcess } from '../apps/server/src/start.ts';
import { serveCustomers } from './customer-service.mjs';
import { customerServicePort } from './support/ports.ts';
import { refusingMailer } from './support/refused-mail.ts';

async function main() {
  const config = loadConfig();
  const deps = await serveInOneProcess(config);
  // the mail worker reads deps.mailer at each send: from here on, the suite's refused domain
  // fails as a refusing mail server would (support/refused-mail.ts)
  deps.mailer = refusingMailer(deps.mailer);
  await serveCustomers(deps, customerServicePort(config.PORT));
}

main().catch(exitOnStartError);
