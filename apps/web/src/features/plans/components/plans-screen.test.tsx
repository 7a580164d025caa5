import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { autoRenewalPaths, type Plan } from '@portal/contract';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { renewalAnswer } from '@/test/auto-renewal';
import { PlansScreen } from './plans-screen';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const plans: Plan[] = [
  {
    _id: '00000000-0000-4000-8000-00000000a1b2',
    planName: 'Starter',
    planType: 'Single',
    noOfCompany: 1,
    duration: 30,
    amount: 499,
    createdDate: '2026-06-01T10:00:00.000Z',
  },
  {
    _id: '00000000-0000-4000-8000-00000000c3d4',
    planName: 'Business',
    planType: 'Multi',
    noOfCompany: 5,
    duration: 180,
    amount: 7499.5,
    createdDate: '2026-06-02T10:00:00.000Z',
  },
];

/** The catalogue (or a failure) for GET /api/plans, and auto-renewal off; a fresh answer a call. */
const serveCatalogue = (catalogue: () => Response) =>
  vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (input) =>
      String(input) === autoRenewalPaths.renewal ? renewalAnswer(null) : catalogue(),
    );

const answer = (list: Plan[]) =>
  serveCatalogue(() =>
    jsonResponse(200, { success: true, data: { plans: list, current: null, purchases: [] } }),
  );

describe('PlansScreen', () => {
  it('shows cards with badge, price before GST, companies, validity and the Multi-only line', async () => {
    answer(plans);
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    expect(screen.getByRole('heading', { name: 'Choose Your Plan' })).toBeInTheDocument();
    const starter = (await screen.findByRole('heading', { name: 'Starter' })).closest('section')!;
    expect(starter).toHaveTextContent('Single');
    expect(starter).toHaveTextContent('₹499.00 + GST / 30 days');
    expect(starter).toHaveTextContent('1 Company');
    expect(starter).not.toHaveTextContent('1 Companies');
    expect(starter).toHaveTextContent('Valid for 30 days');
    expect(starter).toHaveTextContent('24/7 Customer Support');
    expect(starter).toHaveTextContent('Advanced Analytics');
    expect(starter).not.toHaveTextContent('Multi-company Management');
    const business = screen.getByRole('heading', { name: 'Business' }).closest('section')!;
    expect(business).toHaveTextContent('5 Companies');
    expect(business).toHaveTextContent('Multi-company Management');
    expect(within(business).getByRole('button', { name: /Purchase Plan/ })).toBeEnabled();
  });

  it('shows the table with the last 6 characters of the id and whole rupees', async () => {
    answer(plans);
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    await screen.findByRole('heading', { name: 'Starter' });
    await userEvent.click(screen.getByRole('button', { name: 'Table View' }));
    expect(screen.getByRole('button', { name: 'Table View' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Plan Details',
      'Type',
      'Companies',
      'Duration',
      'Price',
      'Created',
      'Action',
    ]);
    const row = screen.getByText('Business').closest('tr')!;
    expect(row).toHaveTextContent('ID: 00c3d4');
    expect(row).toHaveTextContent('Multi');
    expect(row).toHaveTextContent('5 Companies');
    expect(row).toHaveTextContent('180 days');
    expect(row).toHaveTextContent('₹7,500 + GST');
    expect(row).not.toHaveTextContent('₹7,499.50');
    expect(row).toHaveTextContent('02/06/2026');
  });

  it('goes to the order page with a toast on Purchase Plan', async () => {
    answer(plans);
    const { router } = renderWithProviders(<PlansScreen />, { path: '/plans' });
    const business = (await screen.findByRole('heading', { name: 'Business' })).closest('section')!;
    await userEvent.click(within(business).getByRole('button', { name: /Purchase Plan/ }));
    expect(await screen.findByText('Redirecting to order Business plan...')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/orders');
    expect(router.state.location.search).toBe(`?planId=${plans[1]!._id}`);
  });

  it('offers auto-renewal below the plans, for the plan chosen there when there is none', async () => {
    answer(plans);
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    const card = await screen.findByRole('region', { name: 'Auto-renewal' });
    expect(await within(card).findByLabelText('Plan to renew')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Turn on auto-renewal' })).toBeEnabled();
  });

  it('has an empty state for each view', async () => {
    answer([]);
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    expect(await screen.findByText('No plans available at the moment.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Table View' }));
    expect(screen.getByText('No plans available')).toBeInTheDocument();
  });

  it('says when the plans cannot be loaded', async () => {
    serveCatalogue(() => jsonResponse(500, {}));
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    expect(await screen.findByText('Failed to load plans')).toBeInTheDocument();
    expect(await screen.findByText('Failed to fetch plans')).toBeInTheDocument();
  });
});

describe('PlansScreen with a plan on the account', () => {
  const current = {
    planId: plans[0]!._id,
    planName: 'Starter',
    periodStartDate: '2026-11-23T06:00:00.000Z',
    periodEndDate: '2026-12-23T06:00:00.000Z',
    endDate: '2027-01-22T06:00:00.000Z',
    daysLeft: 60,
    queued: [],
  };
  const purchases = [
    {
      planId: plans[0]!._id,
      startDate: '2027-01-22T06:00:00.000Z',
      endDate: '2027-02-21T06:00:00.000Z',
      change: 'renewal' as const,
      daysKept: 60,
    },
    {
      planId: plans[1]!._id,
      startDate: '2027-01-22T06:00:00.000Z',
      endDate: '2027-07-21T06:00:00.000Z',
      change: 'upgrade' as const,
      daysKept: 60,
    },
  ];

  it('marks the current plan with its days left and says what buying again does', async () => {
    serveCatalogue(() => jsonResponse(200, { success: true, data: { plans, current, purchases } }));
    renderWithProviders(<PlansScreen />, { path: '/plans' });
    const starter = (await screen.findByRole('heading', { name: 'Starter' })).closest('section')!;
    expect(starter).toHaveTextContent('Current plan');
    expect(starter).toHaveTextContent('60 days left, until 22/01/2027');
    expect(within(starter).getByRole('button', { name: /Purchase Plan/ })).toHaveTextContent(
      'Purchase Plan',
    );
    expect(starter).toHaveTextContent('Extends your plan to 21/02/2027');
    const business = screen.getByRole('heading', { name: 'Business' }).closest('section')!;
    expect(business).not.toHaveTextContent('Current plan');
    expect(business).toHaveTextContent('Starts 22/01/2027, when your current plan ends');

    await userEvent.click(screen.getByRole('button', { name: 'Table View' }));
    const row = screen.getByText('Starter').closest('tr')!;
    expect(row).toHaveTextContent('Current plan');
    expect(row).toHaveTextContent('Extends your plan to 21/02/2027');
  });
});
