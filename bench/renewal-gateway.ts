/**
 * The renewal day's gateway (renewal-day.ts): the portal's app with SANDBOX=on, in a process of
 * its own, serving the sandbox gateway and the sandbox IRP to the portals under measure. Two
 * things differ from `src/main.ts`, which the bench cannot set:
 *
 * - its webhooks go over HTTP to PUBLIC_URL (haproxy), where the portal hands them to itself in
 *   memory whatever PUBLIC_URL says, so that no other instance would ever receive one;
 * - it runs no background jobs: the portals' mail and document-draw jobs, on the same
 *   database, are theirs to run.
 *
 * Prints `listening <url>` once it serves; tells how its webhooks went at WEBHOOK_COUNTS_PATH.
 */
import { paymentPaths } from '@portal/contract';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDeps } from '../apps/server/src/create-deps';
import { openDatabase } from '../apps/server/src/db/client';
import { WEBHOOK_COUNTS_PATH } from './renewal-data';
// every mail template's data, which the features' mail files declare and the app's routes send
import type {} from '../apps/server/src/mail-templates';

const config = loadConfig();
const database = await openDatabase(config);
const deps = await createDeps(config, database.db);
const webhookUrl = `${config.PUBLIC_URL}${paymentPaths.webhook}`;
/** Webhooks answered 2xx, answered otherwise, and given up (the sandbox waits 5 s, once). */
const webhooks = { answered: 0, refused: 0, unanswered: 0 };
// the gateway's own calls to itself stay in memory; only the webhooks take the network
const inMemory = deps.payments.fetch;
deps.payments.fetch = async (url, init) => {
  if (url !== webhookUrl) return inMemory(url, init);
  try {
    const response = await fetch(url, init);
    webhooks[response.ok ? 'answered' : 'refused'] += 1;
    return response;
  } catch (error) {
    webhooks.unanswered += 1;
    throw error;
  }
};
const app = await buildApp(deps);
app.get(WEBHOOK_COUNTS_PATH, { schema: { hide: true } }, async () => webhooks);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});

const address = await app.listen({ host: config.HOST, port: config.PORT });
console.log(`listening ${address}`);
