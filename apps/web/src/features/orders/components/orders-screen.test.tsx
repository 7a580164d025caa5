import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, Plan } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { goToPayment } from '@/lib/go-to-payment';
import { OrdersScreen } from './orders-screen';
import { paidPlanLine } from './payment-result';

vi.mock('@/lib/go-to-payment', () => ({ goToPayment: vi.fn() }));

const plans: Plan[] = [
  {
    _id: '00000000-0000-4000-8000-0000000000a1',
    planName: 'Starter',
    planType: 'Single',
    noOfCompany: 1,
    duration: 30,
    amount: 499,
    createdDate: '2026-06-01T10:00:00.000Z',
  },
  {
    _id: '00000000-0000-4000-8000-0000000000b2',
    planName: 'Professional',
    planType: 'Single',
    noOfCompany: 1,
    duration: 365,
    amount: 4999,
    createdDate: '2026-06-02T10:00:00.000Z',
  },
];

const order = (overrides: Partial<Order>): Order => ({
  _id: '00000000-0000-4000-8000-00000000abcdef'.slice(0, 36),
  planId: { _id: plans[1]!._id, planName: 'Professional' },
  amount: 6148.77,
  formattedAmount: '₹6,148.77',
  orderDate: '2026-06-03T10:00:00.000Z',
  paymentStatus: 'Completed',
  receiptUrl: '/api/orders/x/receipt?expires=1&sub=u&sig=s',
  invoiceNumber: 'INV/2026-27/000001',
  servicePeriod: { startDate: '2026-06-03T10:00:00.000Z', endDate: '2027-06-03T10:00:00.000Z' },
  ...overrides,
});

type Route = (init: RequestInit | undefined) => Response;

/** The billing details the order form shows and asks to confirm before payment. */
const billingRoute: Route = () =>
  jsonResponse(200, {
    success: true,
    message: 'Billing details fetched',
    billingDetails: {
      gstin: '27AAPFU0939F1ZV',
      addressLine1: 'Office 4, Baner Road',
      addressLine2: null,
      city: 'Pune',
      stateCode: '27',
      stateName: 'Maharashtra',
      pin: '411045',
      updatedAt: '2026-06-01T10:00:00.000Z',
    },
    registeredGstin: '27AAPFU0939F1ZV',
    supplierStateCode: '29',
  });

/** Proceed to Payment, then Confirm and pay in the billing confirmation. */
async function proceedToPayment() {
  await userEvent.click(await screen.findByRole('button', { name: 'Proceed to Payment' }));
  const confirm = await screen.findByRole('dialog', { name: 'Confirm billing details' });
  await userEvent.click(await within(confirm).findByRole('button', { name: 'Confirm and pay' }));
}

function serve(routes: Record<string, Route>) {
  const calls: { url: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const key = `${init?.method ?? 'GET'} ${url}`;
    const route = { 'GET /api/billing-details': billingRoute, ...routes }[key];
    if (!route) throw new Error(`unexpected call ${key}`);
    return route(init);
  });
  return calls;
}

beforeEach(() => {
  useSessionStore.setState({
    token: 'token',
    isAuthenticated: true,
    user: testUser({
      _id: 'u1',
      id: 'u1',
      category: null,
      tally_serialno: '1',
      tally_version: null,
      created_at: '2026-01-01T00:00:00.000Z',
    }),
  });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  if (vi.isMockFunction(window.open)) vi.mocked(window.open).mockRestore();
  vi.mocked(goToPayment).mockReset();
  useSessionStore.getState().clearSession();
});

const plansRoute: Route = () =>
  jsonResponse(200, { success: true, data: { plans, current: null, purchases: [] } });

describe('OrdersScreen, Create Order', () => {
  it('preselects the plan from ?planId, shows the summary, and pays by full-page redirect', async () => {
    const calls = serve({
      'GET /api/plans': plansRoute,
      'POST /api/orders': () =>
        jsonResponse(201, {
          success: true,
          message: 'Order created',
          order: order({ paymentStatus: 'Pending', receiptUrl: null }),
        }),
      'POST /api/create-payment': () =>
        jsonResponse(200, {
          success: true,
          paymentUrl: 'http://localhost/sandbox/razorpay/checkout/plink_1',
        }),
    });
    const { router } = renderWithProviders(<OrdersScreen />, {
      path: `/orders?planId=${plans[1]!._id}`,
    });
    expect(await screen.findByText('Professional plan selected!')).toBeInTheDocument();
    expect(screen.getByText('Plan pre-selected from Plans page')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Professional/ })).toBeChecked();

    expect(screen.getByLabelText('Company Name')).toHaveValue('Acme Traders Pvt Ltd');
    expect(screen.getByLabelText('Email Address')).toHaveValue('demo@acme.example');
    expect(screen.getByLabelText('Phone Number')).toHaveValue('9876543210');
    expect(screen.getByLabelText('Amount')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Amount')).toHaveValue('₹6,148.77');

    const summary = screen.getByRole('heading', { name: 'Order Summary' }).closest('section')!;
    expect(summary).toHaveTextContent('PlanProfessional');
    expect(summary).toHaveTextContent('Base Amount₹4,999.00');
    expect(summary).toHaveTextContent('GST 18%₹899.82');
    expect(summary).toHaveTextContent('Internet Handling Charges 5%₹249.95');
    expect(summary).toHaveTextContent('Total₹6,148.77');

    await proceedToPayment();
    await vi.waitFor(() =>
      expect(goToPayment).toHaveBeenCalledWith(
        'http://localhost/sandbox/razorpay/checkout/plink_1',
      ),
    );
    expect(calls.find((c) => c.url === '/api/orders')?.body).toEqual({
      planId: plans[1]!._id,
      amount: 6148.77,
    });
    expect(calls.find((c) => c.url === '/api/create-payment')?.body).toEqual({
      order_id: order({})._id,
      amount: 6148.77,
      customer_name: 'Acme Traders Pvt Ltd',
      customer_email: 'demo@acme.example',
      customer_phone: '9876543210',
      planType: 'Single',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Back to Plans' }));
    expect(router.state.location.pathname).toBe('/plans');
  });

  it('keeps Proceed to Payment disabled without a plan, and checks the fields in order', async () => {
    const calls = serve({ 'GET /api/plans': plansRoute });
    renderWithProviders(<OrdersScreen />, { path: '/orders' });
    const proceed = await screen.findByRole('button', { name: 'Proceed to Payment' });
    expect(proceed).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Back to Plans' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('radio', { name: /Starter/ }));
    expect(proceed).toBeEnabled();

    await userEvent.clear(screen.getByLabelText('Company Name'));
    await userEvent.clear(screen.getByLabelText('Email Address'));
    await userEvent.clear(screen.getByLabelText('Phone Number'));
    await userEvent.click(proceed);
    expect(await screen.findAllByText('Customer name is required')).not.toHaveLength(0);
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Company Name'), 'Acme');
    await userEvent.click(proceed);
    expect(await screen.findAllByText('Email is required')).not.toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Email Address'), 'a@example.test');
    await userEvent.click(proceed);
    expect(await screen.findAllByText('Phone number is required')).not.toHaveLength(0);
    // nothing but the reads of the plans, the billing details and the auto-renewal
    const reads = ['/api/plans', '/api/billing-details', '/api/auto-renewal'];
    expect(calls.filter((c) => !reads.includes(c.url))).toEqual([]);
  });

  it("shows the server's message when the order is refused", async () => {
    serve({
      'GET /api/plans': plansRoute,
      'POST /api/orders': () =>
        jsonResponse(409, { success: false, message: 'This plan is no longer offered' }),
    });
    renderWithProviders(<OrdersScreen />, { path: `/orders?planId=${plans[0]!._id}` });
    await proceedToPayment();
    expect(await screen.findByText('This plan is no longer offered')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
    expect(goToPayment).not.toHaveBeenCalled();
  });

  it("says 'Order creation failed' when the answer is success: false", async () => {
    serve({
      'GET /api/plans': plansRoute,
      'POST /api/orders': () => jsonResponse(200, { success: false }),
    });
    renderWithProviders(<OrdersScreen />, { path: `/orders?planId=${plans[0]!._id}` });
    await proceedToPayment();
    expect(await screen.findByText('Order creation failed')).toBeInTheDocument();
  });

  it("says 'Payment initiation failed' when the payment cannot start", async () => {
    serve({
      'GET /api/plans': plansRoute,
      'POST /api/orders': () =>
        jsonResponse(201, {
          success: true,
          message: 'Order created',
          order: order({ paymentStatus: 'Pending', receiptUrl: null }),
        }),
      'POST /api/create-payment': () => jsonResponse(502, {}),
    });
    renderWithProviders(<OrdersScreen />, { path: `/orders?planId=${plans[0]!._id}` });
    await proceedToPayment();
    expect(await screen.findByText('Payment initiation failed')).toBeInTheDocument();
  });
});

describe('OrdersScreen, Order History', () => {
  it('lists orders by reference, with date and time, status icons, and opens a receipt in a new tab', async () => {
    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': () =>
        jsonResponse(200, {
          success: true,
          orders: [
            order({ _id: 'aaa11100-0000-4000-8000-000000000001' }),
            order({
              _id: 'bbb22200-0000-4000-8000-000000000002',
              paymentStatus: 'Failed',
              receiptUrl: null,
            }),
          ],
        }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(<OrdersScreen />, { path: '/orders?tab=history' });
    const paid = (await screen.findByText('#AAA111')).closest('tr')!;
    expect(within(paid).getByRole('button', { name: 'Receipt for order #AAA111' })).toBeEnabled();
    expect(paid).toHaveTextContent('Professional');
    expect(paid).toHaveTextContent('₹6,148.77');
    // 10:00 UTC is 15:30 in India
    expect(paid).toHaveTextContent('03/06/2026, 15:30');
    expect(paid).toHaveTextContent('Completed');
    expect(paid.querySelector('svg')).not.toBeNull();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Order ID',
      'Plan',
      'Amount',
      'Order Date',
      'Payment Status',
      'Receipt',
    ]);

    await userEvent.click(within(paid).getByRole('button', { name: /Receipt/ }));
    expect(open).toHaveBeenCalledWith(order({}).receiptUrl, '_blank', 'noopener,noreferrer');
    expect(await screen.findByText('Downloading receipt...')).toBeInTheDocument();

    const failed = screen.getByText('#BBB222').closest('tr')!;
    const receipt = within(failed).getByRole('button', { name: /Receipt/ });
    expect(receipt).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(receipt);
    expect(await screen.findByText('Receipt not available for this order.')).toBeInTheDocument();
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('checks the payment status of a Pending order on demand', async () => {
    const pending = order({ paymentStatus: 'Pending', receiptUrl: null });
    let status: Order['paymentStatus'] = 'Pending';
    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': () =>
        jsonResponse(200, { success: true, orders: [{ ...pending, paymentStatus: status }] }),
      [`POST /api/orders/${pending._id}/check-status`]: () => {
        status = 'Completed';
        return jsonResponse(200, {
          success: true,
          message: 'Payment status: Completed',
          order: { ...pending, paymentStatus: 'Completed' },
        });
      },
    });
    renderWithProviders(<OrdersScreen />, { path: '/orders?tab=history' });
    await userEvent.click(await screen.findByRole('button', { name: 'Check payment status' }));
    expect(await screen.findByText('Payment status: Completed')).toBeInTheDocument();
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Check payment status' })).not.toBeInTheDocument();
  });

  it('has an empty state and an error message', async () => {
    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': () => jsonResponse(200, { success: true, orders: [] }),
    });
    const { unmount } = renderWithProviders(<OrdersScreen />, { path: '/orders?tab=history' });
    expect(await screen.findByText('No Orders Yet')).toBeInTheDocument();
    expect(screen.getByText('Start by creating your first order!')).toBeInTheDocument();
    unmount();
    vi.mocked(globalThis.fetch).mockRestore();

    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': () => jsonResponse(500, {}),
    });
    renderWithProviders(<OrdersScreen />, { path: '/orders?tab=history' });
    expect(await screen.findByText('Failed to load order history')).toBeInTheDocument();
  });
});

describe('OrdersScreen, back from the gateway', () => {
  const returned = order({
    _id: 'c4fa65d0-0000-4000-8000-000000000003',
    servicePeriod: { startDate: '2026-01-10T10:00:00.000Z', endDate: '2027-01-10T10:00:00.000Z' },
  });
  const checkStatus = `POST /api/orders/${returned._id}/check-status`;
  const answerOrder = (o: Order) => () =>
    jsonResponse(200, { success: true, message: `Payment status: ${o.paymentStatus}`, order: o });
  const history = (o: Order) => () => jsonResponse(200, { success: true, orders: [o] });
  const path = `/orders?tab=history&order=${returned._id}`;

  it('says the payment succeeded, with the plan end, the order, the invoice and its receipt', async () => {
    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': history(returned),
      [checkStatus]: answerOrder(returned),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(<OrdersScreen />, { path });
    const banner = (await screen.findByRole('heading', { name: 'Payment successful' })).closest(
      'section',
    )!;
    expect(banner).toHaveTextContent('Professional is active until 10/01/2027.');
    expect(banner).toHaveTextContent('Order #C4FA65 · ₹6,148.77 · Invoice INV/2026-27/000001');
    await userEvent.click(
      within(banner).getByRole('button', { name: 'Receipt for order #C4FA65' }),
    );
    expect(open).toHaveBeenCalledWith(returned.receiptUrl, '_blank', 'noopener,noreferrer');

    // the row of this payment is marked, with the invoice number beside its Receipt button
    const row = (await screen.findByText('This payment')).closest('tr')!;
    expect(row).toHaveTextContent('#C4FA65');
    expect(row).toHaveTextContent('Invoice INV/2026-27/000001');

    await userEvent.click(within(banner).getByRole('button', { name: 'Dismiss payment result' }));
    expect(screen.queryByRole('heading', { name: 'Payment successful' })).not.toBeInTheDocument();
  });

  it('says a failed payment failed and retries it as a new order for the same plan', async () => {
    const failed = { ...returned, paymentStatus: 'Failed' as const, receiptUrl: null };
    const calls = serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': history(failed),
      [checkStatus]: answerOrder(failed),
      'POST /api/orders': () =>
        jsonResponse(201, {
          success: true,
          message: 'Order created',
          order: order({ _id: 'd0000000-0000-4000-8000-000000000004', paymentStatus: 'Pending' }),
        }),
      'POST /api/create-payment': () =>
        jsonResponse(200, { success: true, paymentUrl: 'http://localhost/checkout/plink_2' }),
    });
    renderWithProviders(<OrdersScreen />, { path });
    const banner = (await screen.findByRole('heading', { name: 'Payment failed' })).closest(
      'section',
    )!;
    expect(banner).toHaveTextContent('The payment for order #C4FA65 (Professional, ₹6,148.77)');
    await userEvent.click(
      within(banner).getByRole('button', { name: 'Retry payment for order #C4FA65' }),
    );
    // as a first purchase does, it asks to confirm the billing details the new order keeps
    const confirm = await screen.findByRole('dialog', { name: 'Confirm billing details' });
    expect(calls.some((c) => c.url === '/api/orders')).toBe(false);
    await userEvent.click(await within(confirm).findByRole('button', { name: 'Confirm and pay' }));
    await vi.waitFor(() =>
      expect(goToPayment).toHaveBeenCalledWith('http://localhost/checkout/plink_2'),
    );
    expect(calls.find((c) => c.url === '/api/orders')?.body).toEqual({
      planId: plans[1]!._id,
      amount: 6148.77,
    });
    expect(calls.find((c) => c.url === '/api/create-payment')?.body).toMatchObject({
      order_id: 'd0000000-0000-4000-8000-000000000004',
      amount: 6148.77,
      customer_name: 'Acme Traders Pvt Ltd',
      customer_email: 'demo@acme.example',
      customer_phone: '9876543210',
    });
    // the failed row offers Retry too
    const row = screen.getByText('This payment').closest('tr')!;
    expect(within(row).getByRole('button', { name: /Retry payment/ })).toBeInTheDocument();
  });

  it('waits for the bank while the payment is pending, asking again until it is settled', async () => {
    const pending = { ...returned, paymentStatus: 'Pending' as const, receiptUrl: null };
    let answers = 0;
    serve({
      'GET /api/plans': plansRoute,
      'GET /api/orders/history': history(pending),
      [checkStatus]: () => answerOrder(++answers < 2 ? pending : returned)(),
    });
    renderWithProviders(<OrdersScreen />, { path });
    expect(await screen.findByRole('heading', { name: 'Payment pending' })).toBeInTheDocument();
    expect(
      screen.getByText(/waiting for the bank to confirm the payment for order #C4FA65/),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Payment successful' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(answers).toBe(2);
  }, 15_000);
});

describe('paidPlanLine', () => {
  it('says a queued period extends the plan, and a period in force that the plan is active', () => {
    const renewal = order({
      servicePeriod: { startDate: '2026-12-23T06:00:00.000Z', endDate: '2027-01-22T06:00:00.000Z' },
    });
    expect(paidPlanLine(renewal, new Date('2026-11-30T00:00:00.000Z'))).toBe(
      'Your plan is extended to 22/01/2027 (Professional from 23/12/2026).',
    );
    expect(paidPlanLine(renewal, new Date('2026-12-24T00:00:00.000Z'))).toBe(
      'Professional is active until 22/01/2027.',
    );
  });
});
