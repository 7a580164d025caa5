import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutoRenewal } from '@portal/contract';
import { goToPayment } from '@/lib/go-to-payment';
import { catalogueAnswer, renewalAnswer, testRenewal } from '@/test/auto-renewal';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { serve, type Route } from '@/test/serve';
import { AutoRenewalCard } from './auto-renewal-card';

vi.mock('@/lib/go-to-payment', () => ({ goToPayment: vi.fn() }));

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  vi.mocked(goToPayment).mockReset();
  // the notices of one test are not replayed to the next one's toaster
  toast.dismiss();
});

const card = () => screen.getByRole('region', { name: 'Auto-renewal' });
const AUTHORISE_URL = 'https://gateway.example/subscriptions/sub_new';

/**
 * The server, as far as the card reads and changes it: the auto-renewal kept between calls, a
 * POST that sets it up for authorising (or the given answer), a DELETE that ends it.
 */
function server(
  start: AutoRenewal | null,
  { plan = true, post, del }: Partial<Record<'post' | 'del', Route>> & { plan?: boolean } = {},
) {
  let renewal = start;
  return serve({
    'GET /api/auto-renewal': () => renewalAnswer(renewal),
    'GET /api/plans': () => catalogueAnswer({ none: !plan }),
    'POST /api/auto-renewal':
      post ??
      ((init) => {
        const { planId } = JSON.parse(String(init?.body)) as { planId: string };
        renewal = testRenewal({
          status: 'authorising',
          planId,
          planName: planId === 'plan-business' ? 'Business' : 'Starter',
          method: null,
          nextChargeDate: null,
          authoriseUrl: AUTHORISE_URL,
        });
        return renewalAnswer(renewal, 'Authorise the mandate to turn on auto-renewal');
      }),
    'DELETE /api/auto-renewal':
      del ??
      (() => {
        renewal =
          renewal?.status === 'authorising'
            ? null
            : { ...renewal!, status: 'ending', nextChargeDate: null };
        return renewalAnswer(renewal, 'Auto-renewal turned off');
      }),
  });
}

const sent = (calls: { key: string; body: unknown }[], key: string) =>
  calls.filter((c) => c.key === key);

describe('AutoRenewalCard, turning it on', () => {
  it('sets it up for the plan in force, then sends the browser to the gateway to authorise', async () => {
    const calls = server(null);
    renderWithProviders(<AutoRenewalCard />);
    await screen.findByText('It renews your Starter plan.');
    await userEvent.click(within(card()).getByRole('button', { name: 'Turn on auto-renewal' }));
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith(AUTHORISE_URL));
    expect(sent(calls, 'POST /api/auto-renewal').map((c) => c.body)).toEqual([
      { planId: 'plan-starter' },
    ]);
    // should the browser stay, the card says what is waiting, with the gateway's link
    expect(
      await within(card()).findByRole('link', { name: 'Authorise the mandate' }),
    ).toHaveAttribute('href', AUTHORISE_URL);
  });

  it('without a plan, asks for one first, then renews the plan chosen', async () => {
    const calls = server(null, { plan: false });
    renderWithProviders(<AutoRenewalCard />);
    const choice = await screen.findByLabelText('Plan to renew');
    const turnOn = within(card()).getByRole('button', { name: 'Turn on auto-renewal' });
    await userEvent.click(turnOn);
    expect(within(card()).getByRole('alert')).toHaveTextContent('Choose a plan');
    expect(choice).toHaveAttribute('aria-invalid', 'true');
    expect(sent(calls, 'POST /api/auto-renewal')).toHaveLength(0);

    await userEvent.selectOptions(choice, 'plan-business');
    expect(within(card()).queryByRole('alert')).toBeNull();
    await userEvent.click(turnOn);
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith(AUTHORISE_URL));
    expect(sent(calls, 'POST /api/auto-renewal')[0]!.body).toEqual({ planId: 'plan-business' });
  });

  it("shows the server's message when it refuses, and goes nowhere", async () => {
    server(null, {
      post: () =>
        jsonResponse(409, {
          success: false,
          message: 'Auto-renewal is already on. Turn it off before choosing another plan.',
        }),
    });
    renderWithProviders(<AutoRenewalCard />);
    await screen.findByText('It renews your Starter plan.');
    await userEvent.click(within(card()).getByRole('button', { name: 'Turn on auto-renewal' }));
    expect(
      await screen.findByText(
        'Auto-renewal is already on. Turn it off before choosing another plan.',
      ),
    ).toBeInTheDocument();
    expect(goToPayment).not.toHaveBeenCalled();
  });
});

describe('AutoRenewalCard, turning it off', () => {
  it('says what happens before confirming, and turns it off only on confirmation', async () => {
    const calls = server(testRenewal());
    renderWithProviders(<AutoRenewalCard />);
    const turnOff = await within(card()).findByRole('button', { name: 'Turn off auto-renewal' });

    await userEvent.click(turnOff);
    let dialog = screen.getByRole('dialog', { name: 'Turn off auto-renewal?' });
    expect(dialog).toHaveAccessibleDescription(
      'Your Starter plan stays until 22/01/2027. No further debits will be made, and the mandate is cancelled at the bank.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(turnOff).toHaveFocus();
    expect(sent(calls, 'DELETE /api/auto-renewal')).toHaveLength(0);

    await userEvent.click(turnOff);
    dialog = screen.getByRole('dialog', { name: 'Turn off auto-renewal?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off auto-renewal' }));
    expect(await screen.findByText('Auto-renewal turned off')).toBeInTheDocument();
    expect(sent(calls, 'DELETE /api/auto-renewal')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(card()).toHaveTextContent(
      'Auto-renewal is off. Your plan ends on 22/01/2027; no further debits will be made.',
    );
  });

  it('keeps the dialog open with the reason when it cannot be turned off', async () => {
    server(testRenewal({ status: 'halted' }), {
      del: () =>
        jsonResponse(502, {
          success: false,
          message: 'The payment gateway could not be reached. Please try again.',
        }),
    });
    renderWithProviders(<AutoRenewalCard />);
    await userEvent.click(
      await within(card()).findByRole('button', { name: 'Turn off auto-renewal' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Turn off auto-renewal?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off auto-renewal' }));
    expect(
      await within(dialog).findByText(
        'The payment gateway could not be reached. Please try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Auto-renewal turned off')).toBeNull();
  });

  it('drops a mandate never authorised on Cancel, and offers to turn it on again', async () => {
    const calls = server(testRenewal({ status: 'authorising', method: null }));
    renderWithProviders(<AutoRenewalCard />);
    await userEvent.click(
      await within(card()).findByRole('button', { name: 'Cancel auto-renewal' }),
    );
    expect(await screen.findByText('Auto-renewal turned off')).toBeInTheDocument();
    expect(sent(calls, 'DELETE /api/auto-renewal')).toHaveLength(1);
    expect(
      await within(card()).findByRole('button', { name: 'Turn on auto-renewal' }),
    ).toBeInTheDocument();
  });
});
