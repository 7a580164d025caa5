// Customers of their own for the end-to-end tests, made inside a process that holds the
// portal's database (portal.mjs; cluster-server.mjs on PostgreSQL) by the server's own functions.
// It listens on 127.0.0.1 only and exists in the suite alone, never in the portal's own start.
// Run with `node --import tsx`, which lets it use the server's modules.
import { createServer } from 'node:http';
import { eq, inArray } from 'drizzle-orm';
import { DEMO_ACCOUNT } from '../apps/server/src/demo/seed.ts';
import { hashPassword } from '../apps/server/src/lib/password.ts';
import { seedDemoConsents } from '../apps/server/src/demo/consents.ts';
import { consents } from '../apps/server/src/modules/consents/schema.ts';
import { insertCustomer } from '../apps/server/src/modules/users/service.ts';
import { sandboxBankConsents } from '../apps/server/src/sandbox/bank/schema.ts';
import { REFUSED_MAIL_DOMAIN } from './support/refused-mail.ts';

/**
 * POST /customers: a new customer with the demo's profile and sample consents under an address
 * of its own, answered with its sign-in details (e2e/support/fixtures.ts, TestCustomer); with
 * `?mail=refused`, an address whose mail the portal of the suite refuses (support/refused-mail.ts).
 * DELETE /customers/:id, once its test is over: its requests leave the sandbox bank, whose page
 * lists only the newest hundred of everyone's. Resolves once it listens.
 */
export function serveCustomers(deps, port) {
  const { password, ...profile } = DEMO_ACCOUNT;
  // one hash for every customer: they share the demo's password, and hashing is slow on purpose
  const passwordHash = hashPassword(password);
  const atBank = new Map();
  let made = 0;

  async function create(mailRefused) {
    made += 1;
    const customer = await insertCustomer(deps.db, {
      ...profile,
      email: `customer${made}@${mailRefused ? REFUSED_MAIL_DOMAIN : 'acme.example'}`,
      passwordHash: await passwordHash,
    });
    await seedDemoConsents(deps, customer.id);
    const seeded = await deps.db
      .select({ consentId: consents.consentId })
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    atBank.set(
      customer.id,
      seeded.map((row) => row.consentId),
    );
    const { id, email, mobile, gstNo, tallySerialNo, companyName } = customer;
    return { id, email, mobile, gstNo, tallySerialNo, companyName, password };
  }

  async function retire(id) {
    const consentIds = atBank.get(id) ?? [];
    atBank.delete(id);
    if (consentIds.length > 0) {
      await deps.db
        .delete(sandboxBankConsents)
        .where(inArray(sandboxBankConsents.consentId, consentIds));
    }
    return {};
  }

  async function handle(request) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/customers') {
      return create(url.searchParams.get('mail') === 'refused');
    }
    const retired = /^\/customers\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (request.method === 'DELETE' && retired) return retire(retired[1]);
    throw new Error(`no such request: ${request.method} ${url.pathname}`);
  }

  const server = createServer((request, response) => {
    // one connection a request: a connection kept open between a test's first call and its last
    // could be closed by the server's idle timeout just as the client sent on it (ECONNRESET)
    response.shouldKeepAlive = false;
    handle(request).then(
      (body) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      (error) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(error instanceof Error ? error.stack : String(error)),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
