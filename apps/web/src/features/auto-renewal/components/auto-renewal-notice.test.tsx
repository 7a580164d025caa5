import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutoRenewal } from '@portal/contract';
import { renewalAnswer, testRenewal } from '@/test/auto-renewal';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { serve } from '@/test/serve';
import { AutoRenewalNotice } from './auto-renewal-notice';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

/** Renders the notice and waits until its one read has answered. */
async function noticeFor(answer: () => Response) {
  const calls = serve({ 'GET /api/auto-renewal': answer });
  const { queryClient } = renderWithProviders(<AutoRenewalNotice />);
  await vi.waitFor(() => expect(calls).toHaveLength(1));
  await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
}

describe('AutoRenewalNotice (dashboard)', () => {
  it('warns while the gateway retries a failed payment, with the way to pay another way', async () => {
    await noticeFor(() => renewalAnswer(testRenewal({ status: 'retrying' })));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'The last automatic payment did not go through. We will try again; to pay another way, update your payment method.',
    );
    expect(screen.getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      'https://gateway.example/subscriptions/sub_1',
    );
  });

  it('warns once the payments have stopped, with the date the plan ends', async () => {
    await noticeFor(() => renewalAnswer(testRenewal({ status: 'halted' })));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Automatic payments stopped after repeated failures. Your plan ends on 22/01/2027 unless you update your payment method.',
    );
    expect(screen.getByRole('link', { name: 'Update payment method' })).toBeInTheDocument();
  });

  it.each<[string, AutoRenewal | null]>([
    ['off', null],
    ['on', testRenewal()],
    ['authorising', testRenewal({ status: 'authorising' })],
    ['ending', testRenewal({ status: 'ending' })],
    ['paused', testRenewal({ status: 'paused' })],
  ])('says nothing when it is %s', async (_, renewal) => {
    await noticeFor(() => renewalAnswer(renewal));
    expect(document.body).toHaveTextContent(/^$/);
  });

  it('says nothing when the read fails', async () => {
    await noticeFor(() => jsonResponse(500, { success: false, message: 'Down' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
