import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gstinMessages, type BillingDetails } from '@portal/contract';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { BillingConfirmDialog } from './billing-confirm-dialog';

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const KARNATAKA: BillingDetails = {
  gstin: '29AAACR5055K1Z3',
  addressLine1: '12, 2nd Cross, Indiranagar',
  addressLine2: null,
  city: 'Bengaluru',
  stateCode: '29',
  stateName: 'Karnataka',
  pin: '560038',
  updatedAt: '2026-06-01T10:00:00.000Z',
};

/** The billing API as the server answers it, holding what was last saved. */
function billingServer(
  saved: BillingDetails | null,
  refusal?: { status: number; message: string },
) {
  let current = saved;
  const puts: unknown[] = [];
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    if (init?.method === 'PUT') {
      puts.push(JSON.parse(String(init.body)));
      if (refusal)
        return jsonResponse(refusal.status, { success: false, message: refusal.message });
      current = KARNATAKA;
      return jsonResponse(200, {
        success: true,
        message: 'Billing details saved',
        billingDetails: current,
      });
    }
    return jsonResponse(200, {
      success: true,
      message: 'Billing details fetched',
      billingDetails: current,
      registeredGstin: '27AAPFU0939F1ZV',
      supplierStateCode: '29',
    });
  });
  return { fetchSpy, puts };
}

function renderDialog() {
  const onConfirm = vi.fn();
  renderWithProviders(
    <BillingConfirmDialog open onOpenChange={() => undefined} onConfirm={onConfirm} />,
  );
  return onConfirm;
}

describe('BillingConfirmDialog', () => {
  it('asks for an address first, shows a bad GSTIN by its field, then confirms the details', async () => {
    const { puts } = billingServer(null);
    const onConfirm = renderDialog();
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Add your billing address' });
    const gstin = screen.getByLabelText('GSTIN');
    expect(gstin).toHaveValue('27AAPFU0939F1ZV');

    await user.clear(gstin);
    await user.type(gstin, '29AAACR5055K1Z4');
    await user.type(screen.getByLabelText('Address line 1'), KARNATAKA.addressLine1);
    await user.type(screen.getByLabelText('City'), 'Bengaluru');
    await user.type(screen.getByLabelText('PIN code'), '560038');
    await user.selectOptions(screen.getByLabelText('State'), 'Karnataka (29)');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText(gstinMessages.checkCharacter)).toBeInTheDocument();
    expect(gstin).toHaveAccessibleDescription(gstinMessages.checkCharacter);
    expect(puts).toEqual([]);

    await user.clear(gstin);
    await user.type(gstin, '29aaacr5055k1z3');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { name: 'Confirm billing details' });
    expect(puts).toEqual([
      {
        gstin: '29AAACR5055K1Z3',
        addressLine1: KARNATAKA.addressLine1,
        addressLine2: '',
        city: 'Bengaluru',
        stateCode: '29',
        pin: '560038',
      },
    ]);
    expect(screen.getByText('Karnataka (29)')).toBeInTheDocument();
    expect(screen.getByText('GST charged as').nextSibling).toHaveTextContent('CGST 9% + SGST 9%');
    await user.click(screen.getByRole('button', { name: 'Confirm and pay' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows IGST for an address in another State, and edits the details before paying', async () => {
    billingServer({
      ...KARNATAKA,
      gstin: '27AAPFU0939F1ZV',
      stateCode: '27',
      stateName: 'Maharashtra',
      city: 'Pune',
    });
    const onConfirm = renderDialog();
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Confirm billing details' });
    expect(await screen.findByText('Maharashtra (27)')).toBeInTheDocument();
    expect(screen.getByText('GST charged as').nextSibling).toHaveTextContent('IGST 18%');
    await user.click(screen.getByRole('button', { name: 'Edit details' }));
    expect(
      await screen.findByRole('heading', { name: 'Edit billing details' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('City')).toHaveValue('Pune');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("puts the server's refusal beside the field it names", async () => {
    billingServer(KARNATAKA, {
      status: 400,
      message: 'pin: PIN code must be 6 digits and cannot start with 0',
    });
    renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit details' }));
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() =>
      expect(screen.getByLabelText('PIN code')).toHaveAccessibleDescription(
        'PIN code must be 6 digits and cannot start with 0',
      ),
    );
  });
});
