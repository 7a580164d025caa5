import { render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  autoRenewalPaths,
  comingUpPath,
  privacyPaths,
  securityPaths,
  twoFactorPaths,
  type Consent,
  type Order,
  type Plan,
} from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { testRenewal } from '@/test/auto-renewal';
import { loader } from '@/app/routes/dashboard';
import { queryClient as appQueryClient, createQueryClient } from '@/lib/query-client';
import { prefetchDashboardData } from '../api/get-dashboard-data';
import { Dashboard } from './dashboard';
import * as view from './dashboard-view';

// the real view, counted: which props it is drawn with
vi.mock('./dashboard-view', async (importOriginal) => {
  const real = await importOriginal<typeof view>();
  return { ...real, DashboardView: vi.fn(real.DashboardView) };
});

const user = testUser({
  _id: 'u1',
  id: 'u1',
  tally_version: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

const consent = (
  id: string,
  consentStatus: Consent['consentStatus'],
  createdAt: string,
): Consent => ({
  _id: id,
  consentId: `CNS-${id}`,
  consentStatus,
  partnerName: `Partner ${id}`,
  partnerId: `P-${id}`,
  documentUploaded: 'N',
  apiList: [],
  netBankingUserId: null,
  accessToken: null,
  accessTokenExpiresAt: null,
  refreshToken: null,
  refreshTokenExpiresAt: null,
  createdAt,
  consentCreationDate: null,
  lastUpdated: createdAt,
});

const order = (id: string, paymentStatus: Order['paymentStatus'], orderDate: string): Order => ({
  _id: id,
  planId: { _id: 'p1', planName: 'Gold' },
  amount: 1230,
  formattedAmount: '₹1,230.00',
  orderDate,
  paymentStatus,
  receiptUrl: null,
  invoiceNumber: null,
  servicePeriod: null,
});

const plan = (id: string): Plan => ({
  _id: id,
  planName: `Plan ${id}`,
  planType: 'Single',
  noOfCompany: 1,
  duration: 365,
  amount: 1000,
  createdDate: '2026-01-01T00:00:00.000Z',
});

interface Answers {
  profile?: unknown;
  consents?: unknown;
  orders?: unknown;
  plans?: unknown;
  current?: unknown;
  autoRenewal?: unknown;
  fail?: boolean;
}

function answer(answers: Answers) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (answers.fail && !url.includes('/auth/profile')) {
      return jsonResponse(500, {
        success: false,
        message: 'Something went wrong. Please try again.',
      });
    }
    if (url.includes('/auth/profile'))
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        data: { user: answers.profile ?? user },
      });
    const consents = (answers.consents ?? []) as Consent[];
    const orders = (answers.orders ?? []) as Order[];
    if (url.includes('/dashboard/counters?userId=u1')) {
      const consentsWith = (s: string) => consents.filter((c) => c.consentStatus === s).length;
      const ordersWith = (s: string) => orders.filter((o) => o.paymentStatus === s).length;
      return jsonResponse(200, {
        success: true,
        data: {
          totalConsents: consents.length,
          activeConsents: consentsWith('Approved'),
          pendingConsents: consentsWith('Pending'),
          expiredConsents: consentsWith('Expired'),
          rejectedConsents: consentsWith('Rejected'),
          totalPlans: 0,
          totalOrders: orders.length,
          completedOrders: ordersWith('Completed'),
          pendingOrders: ordersWith('Pending'),
          failedOrders: ordersWith('Failed'),
        },
      });
    }
    if (url.includes('/user-consents?')) {
      const limit = Number(new URL(url, 'http://localhost').searchParams.get('limit'));
      return jsonResponse(200, {
        success: true,
        data: consents.slice(0, limit),
        pagination: { total: consents.length, page: 1, limit, total_pages: 1 },
        cursors: { next: null, previous: null },
      });
    }
    if (url.includes('/orders/history'))
      return jsonResponse(200, { success: true, orders, nextCursor: null });
    if (url.includes(comingUpPath))
      return jsonResponse(200, {
        success: true,
        data: { plan: null, consents: { windowDays: 30, count: 0, more: false, soonest: [] } },
      });
    if (url === autoRenewalPaths.renewal)
      return jsonResponse(200, {
        success: true,
        message: 'Auto-renewal fetched',
        autoRenewal: answers.autoRenewal ?? null,
      });
    if (url.includes(securityPaths.lastSignIn))
      return jsonResponse(200, { success: true, data: null });
    if (url.includes('/plans'))
      return jsonResponse(200, {
        success: true,
        data: { plans: answers.plans ?? [], current: answers.current ?? null, purchases: [] },
      });
    return jsonResponse(404, { success: false, message: 'not found' });
  });
}

beforeEach(() => {
  useSessionStore.setState({
    user: { ...user },
    token: 'token',
    isAuthenticated: true,
  });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('section')!;

describe('Dashboard', () => {
  it('shows the counts, the overview and the activity of fixed data', async () => {
    answer({
      consents: [
        consent('c1', 'Approved', '2026-05-10T10:00:00.000Z'),
        consent('c2', 'Pending', '2026-05-01T10:00:00.000Z'),
        consent('c3', 'Approved', '2026-04-01T10:00:00.000Z'),
      ],
      orders: [
        order('o1', 'Completed', '2026-05-05T10:00:00.000Z'),
        order('o2', 'Failed', '2026-05-20T10:00:00.000Z'),
      ],
      plans: [plan('1'), plan('2'), plan('3')],
    });
    renderWithProviders(<Dashboard />, { path: '/dashboard' });

    expect(
      await screen.findByRole('heading', { name: 'Welcome back, Acme Traders Pvt Ltd!' }),
    ).toBeInTheDocument();
    const totalConsents = await screen.findByRole('link', { name: /Total Consents/ });
    await waitFor(() => expect(totalConsents).toHaveTextContent('Total Consents32 approved'));
    expect(totalConsents).toHaveAttribute('href', '/consents');
    expect(screen.getByRole('link', { name: /Active Consents/ })).toHaveTextContent(
      'Active Consents21 pending',
    );
    expect(screen.getByRole('link', { name: /Total Orders/ })).toHaveTextContent(
      'Total Orders21 completed',
    );
    const plans = screen.getByRole('link', { name: /Available Plans/ });
    expect(plans).toHaveTextContent('Available Plans3View All');
    expect(plans).toHaveAttribute('href', '/plans');

    const overview = within(card('Account Overview'));
    expect(overview.getByText('Company').nextSibling).toHaveTextContent('Acme Traders Pvt Ltd');
    expect(overview.getByText('GST Number').nextSibling).toHaveTextContent('27AAPFU0939F1ZV');
    expect(overview.getByText('Tally Version').nextSibling).toHaveTextContent('N/A');

    const activity = within(card('All Recent Activity')).getAllByRole('listitem');
    expect(activity.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'Order for Gold',
      'Consent for Partner c1',
      'Order for Gold',
      'Consent for Partner c2',
    ]);
    // the state once per row, in the words of its screen: Completed and Approved, not Success
    for (const [li, state] of activity.map(
      (li, i) => [li, ['Failed', 'Approved', 'Completed', 'Pending'][i]!] as const,
    )) {
      expect(li.textContent!.split(state)).toHaveLength(2);
      expect(li).not.toHaveTextContent('Success');
    }
    expect(activity[0]).toHaveTextContent('#O2');
    expect(activity[0]).toHaveTextContent('20/05/2026');
    expect(within(card('Recent Orders')).getAllByRole('listitem')).toHaveLength(2);
    expect(
      within(card('All Recent Activity')).getByRole('link', { name: /View All/ }),
    ).toHaveAttribute('href', '/activity');
    // the counts come from the server's counters and the activity from the first 2 consents:
    // the dashboard never downloads every consent
    const urls = vi.mocked(globalThis.fetch).mock.calls.map(([url]) => String(url));
    expect(urls.some((url) => url.includes('/user-consents/user/'))).toBe(false);
    expect(urls).toContain('/api/dashboard/counters?userId=u1');
    expect(urls.find((url) => url.includes('/user-consents?'))).toContain('limit=2');
  });

  it('shows every empty state for a new account without a plan', async () => {
    answer({});
    renderWithProviders(<Dashboard />, { path: '/dashboard' });

    expect(await screen.findByText('No active plan found.')).toBeInTheDocument();
    expect(screen.getByText('Contact support to subscribe to a plan.')).toBeInTheDocument();
    expect(
      within(card('Your Current Plan')).getByRole('link', { name: 'Browse Plans' }),
    ).toHaveAttribute('href', '/plans');
    expect(screen.getByText('No recent orders')).toBeInTheDocument();
    // the welcome item is always there
    expect(within(card('All Recent Activity')).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Available Plans/ })).toHaveTextContent(
      'Available Plans0View All',
    );
    for (const [name, text] of [
      ['View Consents', 'Manage API permissions'],
      ['Browse Plans', 'Explore available options'],
      ['Update Profile', 'Manage account details'],
    ] as const) {
      expect(
        within(card('Quick Actions')).getByRole('link', { name: new RegExp(`^${name}`) }),
      ).toHaveTextContent(text);
    }
  });

  it('shows the current plan with its end date in en-IN', async () => {
    answer({
      profile: {
        ...user,
        plan: {
          planName: 'Gold',
          formattedAmount: '₹12,300.00',
          formattedDuration: '365 days',
          startDate: '2026-01-01T00:00:00.000Z',
          endDate: '2026-12-31T12:00:00.000Z',
          status: 'Active',
        },
      },
    });
    renderWithProviders(<Dashboard />, { path: '/dashboard' });
    const plan = within(card('Your Current Plan'));
    expect(await plan.findByText('Gold')).toBeInTheDocument();
    expect(plan.getByText('Amount').nextSibling).toHaveTextContent('₹12,300.00');
    expect(plan.getByText('Duration').nextSibling).toHaveTextContent('365 days');
    expect(plan.getByText('Active Until').nextSibling).toHaveTextContent('31/12/2026');
  });

  it('says the plan is extended when a renewal is queued after the period in force', async () => {
    answer({
      profile: {
        ...user,
        plan: {
          planName: 'Starter',
          formattedAmount: '₹499.00',
          formattedDuration: '30 days',
          startDate: '2026-11-23T06:00:00.000Z',
          endDate: '2027-01-22T06:00:00.000Z',
          status: 'Active',
        },
      },
      current: {
        planId: 'p1',
        planName: 'Starter',
        periodStartDate: '2026-11-23T06:00:00.000Z',
        periodEndDate: '2026-12-23T06:00:00.000Z',
        endDate: '2027-01-22T06:00:00.000Z',
        daysLeft: 60,
        queued: [
          {
            orderId: 'o2',
            planId: 'p1',
            planName: 'Starter',
            startDate: '2026-12-23T06:00:00.000Z',
            endDate: '2027-01-22T06:00:00.000Z',
          },
        ],
      },
    });
    renderWithProviders(<Dashboard />, { path: '/dashboard' });
    const plan = within(card('Your Current Plan'));
    expect(
      await plan.findByText('Extended to 22/01/2027; the current period ends 23/12/2026.'),
    ).toBeInTheDocument();
    expect(plan.getByText('Active Until').nextSibling).toHaveTextContent('22/01/2027');
  });

  it('warns of a failed automatic payment above the counts, with the way to pay another way', async () => {
    answer({ autoRenewal: testRenewal({ status: 'retrying' }) });
    renderWithProviders(<Dashboard />, { path: '/dashboard' });
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(
      'The last automatic payment did not go through. We will try again; to pay another way, update your payment method.',
    );
    expect(within(notice).getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      'https://gateway.example/subscriptions/sub_1',
    );
    const totalConsents = screen.getByRole('link', { name: /Total Consents/ });
    expect(
      notice.compareDocumentPosition(totalConsents) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('says it failed to load, and shows N/A for plans, when the calls fail', async () => {
    answer({ fail: true });
    renderWithProviders(<Dashboard />, { path: '/dashboard' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load dashboard data.');
    expect(screen.getByRole('link', { name: /Available Plans/ })).toHaveTextContent(
      'Available PlansN/AView All',
    );
  });

  it('keeps the layout while loading: the cards are there, their values are placeholders', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => undefined));
    renderWithProviders(<Dashboard />, { path: '/dashboard' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading dashboard');
    expect(screen.getByRole('link', { name: /Total Consents/ })).not.toHaveTextContent(/\d/);
    expect(screen.getByRole('heading', { name: 'Your Current Plan' })).toBeInTheDocument();
    expect(screen.queryByText('No active plan found.')).not.toBeInTheDocument();
    expect(screen.queryByText('No recent orders')).not.toBeInTheDocument();
  });

  it('draws the loading view once while the answers come in, then the screen with all of them', async () => {
    const answered = answer({ consents: [consent('c1', 'Approved', '2026-05-10T10:00:00.000Z')] });
    let releaseProfile = () => undefined as void;
    const profileHeld = new Promise<void>((resolve) => (releaseProfile = resolve));
    const answerNow = answered.getMockImplementation()!;
    answered.mockImplementation(async (input, init) => {
      if (String(input).includes('/auth/profile')) await profileHeld;
      return answerNow(input, init);
    });
    const drawn = vi.mocked(view.DashboardView);
    drawn.mockClear();
    renderWithProviders(<Dashboard />, { path: '/dashboard' });

    const sent = () => answered.mock.calls.map(([input]) => String(input));
    await waitFor(() =>
      expect(sent().filter((url) => !url.includes('/auth/profile')).length).toBeGreaterThanOrEqual(
        4,
      ),
    );
    // the other answers are in, and have been handed to the screen
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('status')).toHaveTextContent('Loading dashboard');
    releaseProfile();
    const totalConsents = await screen.findByRole('link', { name: /Total Consents/ });
    await waitFor(() => expect(totalConsents).toHaveTextContent('Total Consents11 approved'));

    const propsDrawn = new Set(drawn.mock.calls.map(([props]) => props));
    const loadingProps = [...propsDrawn].filter((props) => props.isLoading);
    expect(loadingProps).toHaveLength(1);
    expect([...propsDrawn].filter((props) => !props.isLoading)).toHaveLength(1);
  });
});

describe("the dashboard route's requests", () => {
  const requested = () => vi.mocked(globalThis.fetch).mock.calls.map(([url]) => String(url));

  it('are sent before the screen renders, and the screen does not send them again', async () => {
    answer({ orders: [order('o1', 'Completed', '2026-03-01T00:00:00.000Z')] });
    // the app's own cache settings, under which the plan catalogue stays current for a while
    const client = createQueryClient();
    await prefetchDashboardData(client, 'u1');
    const prefetched = requested();
    expect(prefetched).toHaveLength(5);
    await waitFor(() => expect(client.isFetching()).toBe(0));

    const router = createMemoryRouter([{ path: '*', element: <Dashboard /> }], {
      initialEntries: ['/dashboard'],
    });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('link', { name: /Total Orders/ })).toHaveTextContent('1');
    // none of the five again; only the Coming up card, the last sign-in line, the privacy
    // notice, the invitation to add an authenticator app and the auto-renewal notice ask their own
    for (const url of prefetched)
      expect(requested().filter((sent) => sent === url)).toHaveLength(1);
    const others = requested().filter((url) => !prefetched.includes(url));
    for (const url of others) {
      expect([
        autoRenewalPaths.renewal,
        comingUpPath,
        securityPaths.lastSignIn,
        privacyPaths.notice,
        twoFactorPaths.status,
      ]).toContain(url);
    }
  });

  it('are each sent once when the route asks first and the screen mounts after, the cards included', async () => {
    answer({});
    useSessionStore.setState({ user: { ...user }, token: 'token', isAuthenticated: true });
    loader();
    await waitFor(() => expect(requested()).toContain(comingUpPath));
    await waitFor(() => expect(appQueryClient.isFetching()).toBe(0));
    const router = createMemoryRouter([{ path: '*', element: <Dashboard /> }], {
      initialEntries: ['/dashboard'],
    });
    render(
      <QueryClientProvider client={appQueryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Coming up' })).toBeInTheDocument();
    await waitFor(() => expect(appQueryClient.isFetching()).toBe(0));
    const sent = requested();
    expect(new Set(sent).size).toBe(sent.length);
    appQueryClient.clear();
  });

  it('are sent by the route only for a signed-in customer', async () => {
    answer({});
    useSessionStore.getState().clearSession();
    loader();
    expect(vi.mocked(globalThis.fetch)).not.toHaveBeenCalled();

    useSessionStore.setState({ user: { ...user }, token: 'token', isAuthenticated: true });
    loader();
    // a request a task: the first at once, the others after it, the cards that ask for their
    // own data last, still before they mount
    expect(requested()).toHaveLength(1);
    await waitFor(() =>
      expect(requested()).toEqual(expect.arrayContaining([comingUpPath, securityPaths.lastSignIn])),
    );
    expect(requested().some((url) => url.includes('/dashboard/counters?userId=u1'))).toBe(true);
    await waitFor(() => expect(appQueryClient.isFetching()).toBe(0));
    appQueryClient.clear();
  });
});
