import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlansResponse } from '@portal/contract';
import { testPlans } from '@/test/auto-renewal';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { serve } from '@/test/serve';
import { useSessionStore } from '@/lib/session-store';
import { OrdersScreen } from './orders-screen';

vi.mock('@/lib/go-to-payment', () => ({ goToPayment: vi.fn() }));

const [starter, business] = testPlans as [(typeof testPlans)[0], (typeof testPlans)[0]];

/** Business (5 companies) in force until 22/01/2027; buying either plan now starts then. */
const catalogue: PlansResponse['data'] = {
  plans: testPlans,
  current: {
    planId: business._id,
    planName: business.planName,
    periodStartDate: '2026-12-23T06:00:00.000Z',
    periodEndDate: '2027-01-22T06:00:00.000Z',
    endDate: '2027-01-22T06:00:00.000Z',
    daysLeft: 50,
    queued: [],
  },
  purchases: [
    {
      planId: starter._id,
      startDate: '2027-01-22T06:00:00.000Z',
      endDate: '2027-02-21T06:00:00.000Z',
      change: 'change',
      daysKept: 50,
    },
    {
      planId: business._id,
      startDate: '2027-01-22T06:00:00.000Z',
      endDate: '2027-02-21T06:00:00.000Z',
      change: 'renewal',
      daysKept: 50,
    },
  ],
};

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
  serve({ 'GET /api/plans': () => jsonResponse(200, { success: true, data: catalogue }) });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const SENTENCE = 'Your current plan stays until 22/01/2027. The Starter plan starts then.';

describe('OrdersScreen, a plan chosen while another is in force', () => {
  it('says before payment, as a warning, that a downgrade starts when the plan in force ends', async () => {
    renderWithProviders(<OrdersScreen />, { path: `/orders?planId=${starter._id}` });
    const explanation = await screen.findByTestId('purchase-explanation');
    expect(explanation).toHaveTextContent(
      `Downgrade to Starter: 1 company instead of 5 companies. ${SENTENCE} It runs until 21/02/2027.`,
    );
    // said once, not also in the words of the earlier explanation
    expect(explanation.textContent!.split('22/01/2027')).toHaveLength(2);
    expect(explanation).not.toHaveTextContent('stays in force');
    expect(explanation).toHaveClass('bg-amber-50');
    // before payment: the button that starts it is still to be pressed
    expect(screen.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
  });

  it('says a renewal of the plan in force the way it did, and leaves the sentence out', async () => {
    renderWithProviders(<OrdersScreen />, { path: `/orders?planId=${business._id}` });
    const explanation = await screen.findByTestId('purchase-explanation');
    expect(explanation).toHaveTextContent(
      /^Renewal: Business runs on from 22\/01\/2027, when your current plan ends, until 21\/02\/2027\./,
    );
    expect(explanation).not.toHaveTextContent('Your current plan stays until');
    expect(explanation).toHaveClass('bg-blue-50');

    await userEvent.click(screen.getByRole('radio', { name: /Starter/ }));
    expect(screen.getByTestId('purchase-explanation')).toHaveTextContent(SENTENCE);
  });
});
