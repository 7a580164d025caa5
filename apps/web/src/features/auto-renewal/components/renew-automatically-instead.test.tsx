import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { goToPayment } from '@/lib/go-to-payment';
import { renewalAnswer, testRenewal } from '@/test/auto-renewal';
import { renderWithProviders } from '@/test/render';
import { serve } from '@/test/serve';
import { RENEW_AUTOMATICALLY, RenewAutomaticallyInstead } from './renew-automatically-instead';

vi.mock('@/lib/go-to-payment', () => ({ goToPayment: vi.fn() }));

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  vi.mocked(goToPayment).mockReset();
});

const AUTHORISE_URL = 'https://gateway.example/subscriptions/sub_order';

describe('RenewAutomaticallyInstead, on the order screen', () => {
  it('sets up auto-renewal of the chosen plan and sends the browser to authorise it', async () => {
    const calls = serve({
      'GET /api/auto-renewal': () => renewalAnswer(null),
      'POST /api/auto-renewal': () =>
        renewalAnswer(
          testRenewal({ status: 'authorising', method: null, authoriseUrl: AUTHORISE_URL }),
        ),
    });
    renderWithProviders(<RenewAutomaticallyInstead planId="plan-business" />);
    await userEvent.click(await screen.findByRole('button', { name: RENEW_AUTOMATICALLY }));
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith(AUTHORISE_URL));
    expect(calls.filter((c) => c.key === 'POST /api/auto-renewal').map((c) => c.body)).toEqual([
      { planId: 'plan-business' },
    ]);
  });

  it('is not offered while auto-renewal is on, nor before a plan is chosen', async () => {
    const calls = serve({ 'GET /api/auto-renewal': () => renewalAnswer(testRenewal()) });
    const { unmount } = renderWithProviders(<RenewAutomaticallyInstead planId="plan-starter" />);
    await waitFor(() => expect(calls.map((c) => c.key)).toEqual(['GET /api/auto-renewal']));
    // the answer has come: still nothing is offered
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: RENEW_AUTOMATICALLY })).toBeNull();
    unmount();
    serve({ 'GET /api/auto-renewal': () => renewalAnswer(null) });
    renderWithProviders(<RenewAutomaticallyInstead planId={null} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: RENEW_AUTOMATICALLY })).toBeNull();
  });
});
