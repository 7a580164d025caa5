import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutoRenewal } from '@portal/contract';
import { catalogueAnswer, renewalAnswer, testPlans, testRenewal } from '@/test/auto-renewal';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { serve } from '@/test/serve';
import { AutoRenewalCard } from './auto-renewal-card';
import { planToRenew } from './turn-on-auto-renewal';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const card = () => screen.getByRole('region', { name: 'Auto-renewal' });

/** The card for an auto-renewal in the given state, once its answer is in. */
async function showing(renewal: AutoRenewal) {
  serve({ 'GET /api/auto-renewal': () => renewalAnswer(renewal) });
  renderWithProviders(<AutoRenewalCard />);
  await waitFor(() => expect(within(card()).queryByLabelText('Loading')).toBeNull());
  return card();
}

const UPDATE_LINK = { name: 'Update payment method' };

describe('AutoRenewalCard', () => {
  it('keeps its place with a placeholder while loading', () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => undefined));
    renderWithProviders(<AutoRenewalCard />);
    expect(within(card()).getByLabelText('Loading')).toBeInTheDocument();
    expect(within(card()).queryByRole('button')).not.toBeInTheDocument();
  });

  it("says what failed, in the server's words, and reads again on Retry", async () => {
    let fail = true;
    serve({
      'GET /api/auto-renewal': () =>
        fail
          ? jsonResponse(503, { success: false, message: 'Auto-renewal is unavailable just now' })
          : renewalAnswer(null),
      'GET /api/plans': () => catalogueAnswer(),
    });
    renderWithProviders(<AutoRenewalCard />);
    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('Auto-renewal is unavailable just now');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(
      await within(card()).findByRole('button', { name: 'Turn on auto-renewal' }),
    ).toBeInTheDocument();
  });

  it('off: says what it does and that it renews the plan in force', async () => {
    serve({
      'GET /api/auto-renewal': () => renewalAnswer(null),
      'GET /api/plans': () => catalogueAnswer(),
    });
    renderWithProviders(<AutoRenewalCard />);
    expect(
      await within(card()).findByText(
        'Auto-renewal is off. Renew your plan automatically at the end of each period by UPI Autopay, e-mandate or card. You get a notice at least 24 hours before each debit, and can turn it off at any time.',
      ),
    ).toBeInTheDocument();
    expect(await within(card()).findByText('It renews your Starter plan.')).toBeInTheDocument();
    expect(within(card()).queryByLabelText('Plan to renew')).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Turn on auto-renewal' })).toBeEnabled();
  });

  it('off without a plan: asks which plan to renew, from the plans on offer', async () => {
    serve({
      'GET /api/auto-renewal': () => renewalAnswer(null),
      'GET /api/plans': () => catalogueAnswer({ none: true }),
    });
    renderWithProviders(<AutoRenewalCard />);
    const choice = await within(card()).findByLabelText('Plan to renew');
    expect([...(choice as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Choose a plan',
      'Starter: ₹499.00 + GST, 30 days',
      'Business: ₹2,495.00 + GST, 30 days',
    ]);
    expect(within(card()).queryByText(/It renews your/)).not.toBeInTheDocument();
  });

  it('authorising: says the mandate waits, links to the gateway, and offers Cancel', async () => {
    const shown = await showing(testRenewal({ status: 'authorising', method: null }));
    expect(shown).toHaveTextContent(
      'Auto-renewal of your Starter plan is waiting for you to authorise the mandate at the payment gateway.',
    );
    expect(within(shown).getByRole('link', { name: 'Authorise the mandate' })).toHaveAttribute(
      'href',
      'https://gateway.example/subscriptions/sub_1',
    );
    expect(within(shown).getByRole('button', { name: 'Cancel auto-renewal' })).toHaveTextContent(
      /^Cancel$/,
    );
    expect(within(shown).queryByRole('button', { name: 'Turn off auto-renewal' })).toBeNull();
  });

  it('on: lists the plan, the method, the most a debit may take and the next debit', async () => {
    const shown = await showing(testRenewal({ method: 'emandate' }));
    const value = (term: string) => within(shown).getByText(term, { selector: 'dt' }).nextSibling;
    expect(value('Plan')).toHaveTextContent(/^Starter$/);
    expect(value('Method')).toHaveTextContent(/^e-mandate$/);
    expect(value('Maximum amount per debit')).toHaveTextContent(/^₹15,000\.00$/);
    expect(value('Next debit')).toHaveTextContent(/^₹613\.77 on 22\/01\/2027$/);
    expect(within(shown).getByRole('button', { name: 'Turn off auto-renewal' })).toBeEnabled();
    expect(within(shown).queryByRole('alert')).toBeNull();
  });

  it('ending: says it is off and when the plan ends, with nothing to press', async () => {
    const shown = await showing(testRenewal({ status: 'ending', nextChargeDate: null }));
    expect(shown).toHaveTextContent(
      'Auto-renewal is off. Your plan ends on 22/01/2027; no further debits will be made.',
    );
    expect(within(shown).queryByRole('button')).toBeNull();
    expect(within(shown).queryByRole('link')).toBeNull();
  });

  it('retrying: an alert that the payment failed, with the way to pay another way', async () => {
    const shown = await showing(
      testRenewal({ status: 'retrying', authoriseUrl: 'https://gateway.example/pay/retry_1' }),
    );
    const alert = within(shown).getByRole('alert');
    expect(alert).toHaveTextContent(
      'The last automatic payment did not go through. We will try again; to pay another way, update your payment method.',
    );
    expect(within(alert).getByRole('link', UPDATE_LINK)).toHaveAttribute(
      'href',
      'https://gateway.example/pay/retry_1',
    );
    expect(within(shown).queryByText('Next debit')).toBeNull();
  });

  it('halted: an alert that the payments stopped and when the plan ends', async () => {
    const shown = await showing(testRenewal({ status: 'halted', nextChargeDate: null }));
    const alert = within(shown).getByRole('alert');
    expect(alert).toHaveTextContent(
      'Automatic payments stopped after repeated failures. Your plan ends on 22/01/2027 unless you update your payment method.',
    );
    expect(within(alert).getByRole('link', UPDATE_LINK)).toHaveAttribute(
      'href',
      'https://gateway.example/subscriptions/sub_1',
    );
    expect(alert).not.toHaveTextContent('did not go through');
  });

  it('paused: says so, and can still be turned off', async () => {
    const shown = await showing(testRenewal({ status: 'paused', nextChargeDate: null }));
    expect(within(shown).getByText('Automatic payments are paused.')).toBeInTheDocument();
    expect(within(shown).queryByRole('alert')).toBeNull();
    expect(within(shown).getByRole('button', { name: 'Turn off auto-renewal' })).toBeEnabled();
  });
});

describe('planToRenew', () => {
  const current = {
    planId: 'plan-starter',
    planName: 'Starter',
    periodStartDate: '2026-12-23T06:00:00.000Z',
    periodEndDate: '2027-01-22T06:00:00.000Z',
    endDate: '2027-02-21T06:00:00.000Z',
    daysLeft: 80,
    queued: [],
  };
  const outcome = (planId: string, change: 'renewal' | 'upgrade' | 'change') => ({
    planId,
    startDate: current.endDate,
    endDate: '2027-03-23T06:00:00.000Z',
    change,
    daysKept: 80,
  });

  it('is the plan paid for last, which a purchase now would renew, else the plan in force', () => {
    const purchases = [outcome('plan-starter', 'change'), outcome('plan-business', 'renewal')];
    expect(planToRenew({ plans: testPlans, current, purchases })).toEqual({
      planId: 'plan-business',
      planName: 'Business',
    });
    expect(planToRenew({ plans: testPlans, current, purchases: [] })).toEqual({
      planId: 'plan-starter',
      planName: 'Starter',
    });
    expect(planToRenew({ plans: testPlans, current: null, purchases })).toBeNull();
  });
});
