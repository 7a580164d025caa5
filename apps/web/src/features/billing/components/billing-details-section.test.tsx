import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingDetails } from '@portal/contract';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { BillingDetailsSection } from './billing-details-section';

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const answer = (billingDetails: BillingDetails | null) =>
  jsonResponse(200, {
    success: true,
    message: 'Billing details fetched',
    billingDetails,
    registeredGstin: '27AAPFU0939F1ZV',
    supplierStateCode: '29',
  });

const card = () => screen.getByRole('heading', { name: 'Billing Details' }).closest('section')!;

describe('BillingDetailsSection', () => {
  it('says there is no address yet and opens the form from the sign-up GSTIN', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(null));
    renderWithProviders(<BillingDetailsSection />);
    expect(await screen.findByText('No billing address yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add billing address' }));
    const dialog = screen.getByRole('dialog', { name: 'Billing details' });
    expect(within(dialog).getByLabelText('GSTIN')).toHaveValue('27AAPFU0939F1ZV');
    expect(within(dialog).getByLabelText('State')).toHaveValue('');
  });

  it('shows the saved details, the place of supply and CGST + SGST within the seller State', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      answer({
        gstin: '29AAACR5055K1Z3',
        addressLine1: '12, 2nd Cross, Indiranagar',
        addressLine2: 'HAL 2nd Stage',
        city: 'Bengaluru',
        stateCode: '29',
        stateName: 'Karnataka',
        pin: '560038',
        updatedAt: '2026-06-01T10:00:00.000Z',
      }),
    );
    renderWithProviders(<BillingDetailsSection />);
    expect(await screen.findByText('29AAACR5055K1Z3')).toBeInTheDocument();
    expect(card()).toHaveTextContent('12, 2nd Cross, IndiranagarHAL 2nd StageBengaluru 560038');
    expect(screen.getByText('Place of supply').nextSibling).toHaveTextContent('Karnataka (29)');
    expect(screen.getByText('GST charged as').nextSibling).toHaveTextContent('CGST 9% + SGST 9%');
    await userEvent.click(screen.getByRole('button', { name: 'Edit billing details' }));
    expect(screen.getByLabelText('State')).toHaveValue('29');
    expect(screen.getByLabelText('Address line 2 (optional)')).toHaveValue('HAL 2nd Stage');
  });

  it('says what failed and tries again', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(jsonResponse(500, { success: false, message: 'Database down' }))
      .mockResolvedValue(answer(null));
    renderWithProviders(<BillingDetailsSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database down');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No billing address yet.')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
