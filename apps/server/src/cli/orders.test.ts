import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { orders } from '../modules/purchases/schema';
import { buyer, dropWebhooks } from '../test/payments';
import { recordingServer } from '../sandbox/recording-server';
import { runAdmin } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // the command runs on the system clock: its orders must be recent by that clock
  t.clock.set(new Date());
});
afterAll(() => t.close());

const admin = (argv: string[], env: Record<string, string>) => runAdmin(t, argv, env);

/** Paid at the sandbox, with neither the webhook nor the browser's return reaching the portal. */
async function lostPayment() {
  const b = await buyer(t);
  const orderId = await b.order();
  const { checkoutPath } = await b.pay(orderId);
  const restore = dropWebhooks(t);
  await b.checkout(checkoutPath, 'pay').finally(restore);
  return orderId;
}

const statusOf = async (orderId: string) =>
  (await t.deps.db.select({ s: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.s;

const refusing = () => ({
  status: 401,
  body: JSON.stringify({ error: { description: 'The api key provided is invalid' } }),
});

describe('orders:reconcile', () => {
  it('settles through the sandbox of this installation and sends nothing to whatever answers at PUBLIC_URL', async () => {
    const other = await recordingServer(refusing);
    try {
      const orderId = await lostPayment();
      // no PUBLIC_URL: it defaults to http://localhost:PORT, where another server answers
      const { code, out, err } = await admin(['orders:reconcile'], { PORT: String(other.port) });
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out).toContain('Payment gateway: the built-in sandbox, served by this process');
      expect(out.at(-1)).toMatch(/^Orders checked: \d+, settled: [1-9]\d*, failed: 0$/);
      expect(await statusOf(orderId)).toBe('Completed');
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('reports every order the configured gateway refuses and exits 1, sending credentials to it alone', async () => {
    const gateway = await recordingServer(refusing);
    const bystander = await recordingServer(refusing);
    try {
      const first = await buyer(t);
      const second = await buyer(t);
      const orderIds = [await first.order(), await second.order()];
      await first.pay(orderIds[0]!);
      await second.pay(orderIds[1]!);

      const { code, out, err } = await admin(['orders:reconcile'], {
        PUBLIC_URL: bystander.url,
        PAYMENT_GATEWAY_URL: gateway.url,
        PAYMENT_GATEWAY_KEY_ID: 'rzp_test_operator',
        PAYMENT_GATEWAY_KEY_SECRET: 'operator-key-secret',
        PAYMENT_GATEWAY_WEBHOOK_SECRET: 'operator-hook-secret',
      });
      expect(code).toBe(1);
      expect(out).toContain(`Payment gateway: ${gateway.url}`);
      for (const orderId of orderIds) {
        expect(err).toContain(
          `Order ${orderId}: payment status check failed: payment gateway answered 401: The api key provided is invalid`,
        );
        expect(await statusOf(orderId)).toBe('Pending');
      }
      expect(err.at(-1)).toMatch(
        /^Error: (\d+) of \1 orders could not be reconciled \(listed above\)$/,
      );
      expect(gateway.requests.length).toBe(err.length - 1);
      const basic = `Basic ${Buffer.from('rzp_test_operator:operator-key-secret').toString('base64')}`;
      for (const request of gateway.requests) expect(request.headers.authorization).toBe(basic);
      expect(bystander.requests).toEqual([]);
    } finally {
      await Promise.all([gateway.close(), bystander.close()]);
    }
  });

  it('refuses to start without an explicit gateway where the sandbox is off', async () => {
    const { code, err } = await admin(['orders:reconcile'], { SANDBOX: 'off' });
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(
        /^Error: Invalid configuration: PAYMENT_GATEWAY_URL, .* with SANDBOX=off$/,
      ),
    ]);
  });
});

describe('the operator command line', () => {
  it('says what went wrong and exits 1 for an unknown command or option', async () => {
    const unknown = await admin(['orders:settle'], {});
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual([
      'Error: Unknown command "orders:settle". Run "npm run admin -- help" for the list.',
    ]);
    const option = await admin(['orders:reconcile', '--all'], {});
    expect(option.code).toBe(1);
    expect(option.err[0]).toMatch(/^Error: Unknown option '--all'/);
  });
});
