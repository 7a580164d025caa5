import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ComingUpResponse } from '@portal/contract';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { LazyComingUpCard } from './lazy-coming-up-card';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const PLAN_ID = '00000000-0000-4000-8000-00000000a1b2';
const CONSENT_ID = '00000000-0000-4000-8000-00000000c3d4';

const data = (over: Partial<ComingUpResponse['data']> = {}): ComingUpResponse['data'] => ({
  plan: {
    planName: 'Starter',
    endDate: '2026-12-23T18:30:00.000Z',
    daysLeft: 12,
    renewPlanId: PLAN_ID,
  },
  consents: {
    windowDays: 30,
    count: 2,
    more: false,
    soonest: [
      {
        _id: CONSENT_ID,
        consentId: 'CONSENT-1',
        partnerName: 'TallyLink Bank Connector',
        expiresAt: '2026-12-16T18:30:00.000Z',
        daysLeft: 1,
      },
    ],
  },
  ...over,
});

const answer = (...bodies: [number, unknown][]) => {
  const spy = vi.spyOn(globalThis, 'fetch');
  for (const [status, body] of bodies) spy.mockResolvedValueOnce(jsonResponse(status, body));
  return spy;
};

/** The card once its answer is drawn: the placeholder before it has the same heading. */
const card = async (text: string) => (await screen.findByText(text)).closest('section')!;

describe('the Coming up card', () => {
  it('shows the plan’s end with Renew to its order, and the consents expiring with Reconnect', async () => {
    answer([200, { success: true, data: data() }]);
    renderWithProviders(<LazyComingUpCard />, { path: '/dashboard' });
    const section = await card('Your Starter plan ends');
    const plan = within(section).getByText('Your Starter plan ends').closest('li')!;
    expect(plan).toHaveTextContent('in 12 days, 24/12/2026');
    expect(within(plan).getByRole('link', { name: 'Renew your Starter plan' })).toHaveAttribute(
      'href',
      `/orders?planId=${PLAN_ID}`,
    );
    const consent = within(section)
      .getByText('Consent for TallyLink Bank Connector expires')
      .closest('li')!;
    expect(consent).toHaveTextContent('in 1 day, 17/12/2026');
    expect(
      within(consent).getByRole('link', {
        name: 'Reconnect the consent for TallyLink Bank Connector',
      }),
    ).toHaveAttribute('href', `/consents?reconnect=${CONSENT_ID}`);
    expect(section).toHaveTextContent('2 consents expire in the next 30 days.');
    expect(within(section).getByRole('link', { name: 'See your consents' })).toHaveAttribute(
      'href',
      '/consents',
    );
  });

  it('sends Renew to the Plans screen for a plan no longer offered, and says when there are more', async () => {
    answer([
      200,
      {
        success: true,
        data: data({
          plan: { ...data().plan!, renewPlanId: null },
          consents: { ...data().consents, count: 100, more: true },
        }),
      },
    ]);
    renderWithProviders(<LazyComingUpCard />);
    const section = await card('Your Starter plan ends');
    expect(within(section).getByRole('link', { name: /^Renew/ })).toHaveAttribute('href', '/plans');
    expect(section).toHaveTextContent('100 or more consents expire in the next 30 days.');
  });

  it('says that nothing ends soon when there is no plan and no consent expiring', async () => {
    answer([
      200,
      {
        success: true,
        data: data({
          plan: null,
          consents: { windowDays: 30, count: 0, more: false, soonest: [] },
        }),
      },
    ]);
    renderWithProviders(<LazyComingUpCard />);
    const section = await card('Nothing ends in the next 30 days.');
    expect(within(section).getByRole('heading', { name: 'Coming up' })).toBeVisible();
    expect(within(section).getByRole('link', { name: 'Browse Plans' })).toHaveAttribute(
      'href',
      '/plans',
    );
  });

  it('shows a placeholder while loading, then the error with Retry, which loads again', async () => {
    const spy = answer(
      [500, { success: false, message: 'Something went wrong. Please try again.' }],
      [200, { success: true, data: data() }],
    );
    renderWithProviders(<LazyComingUpCard />);
    expect(screen.getByText('Loading what is coming up')).toBeInTheDocument();
    const failed = (await screen.findByText('Failed to load what is coming up.')).parentElement!;
    expect(failed).toHaveAttribute('aria-live', 'polite');
    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Your Starter plan ends')).toBeVisible();
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
