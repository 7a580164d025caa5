import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privacyMessages, type Correction } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { CorrectionSection } from './correction-section';

const declined: Correction = {
  reference: 'COR-7Q2K9M4T',
  field: 'companyName',
  currentValue: 'Acme Traders',
  requestedValue: 'Acme Traders LLP',
  reason: null,
  submittedAt: '2026-11-01T04:30:00.000Z',
  respondBy: '2026-12-01T04:30:00.000Z',
  status: 'Declined',
  decidedAt: '2026-11-03T04:30:00.000Z',
  note: 'Send the LLP registration certificate first.',
};

/** The correction calls, answered from `corrections`; the bodies posted. */
function serve(corrections: Correction[], refuse?: { status: number; message: string }) {
  const posted: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    if (key === 'GET /api/privacy/corrections') {
      return jsonResponse(200, { success: true, message: 'ok', data: { corrections } });
    }
    if (key === 'POST /api/privacy/corrections') {
      const body = JSON.parse(String(init!.body)) as { field: 'gstNo'; value: string };
      posted.push(body);
      if (refuse) return jsonResponse(refuse.status, { success: false, message: refuse.message });
      const correction: Correction = {
        reference: 'COR-NEW00001',
        field: body.field,
        currentValue: '27AAPFU0939F1ZV',
        requestedValue: body.value,
        reason: null,
        submittedAt: '2026-11-20T04:30:00.000Z',
        respondBy: '2026-12-20T04:30:00.000Z',
        status: 'Waiting',
        decidedAt: null,
        note: null,
      };
      corrections.unshift(correction);
      return jsonResponse(201, {
        success: true,
        message: privacyMessages.correctionRecorded,
        data: { correction },
      });
    }
    throw new Error(`unexpected call ${key}`);
  });
  return posted;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const section = () => screen.getByRole('region', { name: 'Correct your details' });

describe('CorrectionSection', () => {
  it('lists the requests with their outcome and the operator’s note', async () => {
    serve([declined]);
    renderWithProviders(<CorrectionSection />);
    const item = within(
      await screen.findByRole('list', { name: 'Your correction requests' }),
    ).getByRole('listitem');
    expect(item).toHaveTextContent('COR-7Q2K9M4TDeclined');
    expect(item).toHaveTextContent(
      'Company name: Acme Traders to Acme Traders LLP, asked on 01/11/2026. Decided on 03/11/2026.',
    );
    expect(item).toHaveTextContent('Send the LLP registration certificate first.');
  });

  it('checks the value by the detail chosen, then acknowledges the request with its reference', async () => {
    const posted = serve([]);
    const u = userEvent.setup();
    renderWithProviders(<CorrectionSection />);
    expect(await screen.findByText('You have not asked for a correction.')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Ask for the correction' });
    await u.click(send);
    expect(screen.getByText('Choose what to correct')).toBeInTheDocument();
    await u.selectOptions(screen.getByLabelText('Detail to correct'), 'GSTIN');
    await u.type(screen.getByLabelText('Correct value'), '27AAPFU0939F1ZX');
    await u.click(send);
    expect(await screen.findByText(/does not match the check digit/)).toBeInTheDocument();
    expect(posted).toEqual([]);

    await u.clear(screen.getByLabelText('Correct value'));
    await u.type(screen.getByLabelText('Correct value'), '29aapfu0939f1zr');
    await u.click(send);
    expect(await screen.findByText(/Recorded as/)).toHaveTextContent(
      'Recorded as COR-NEW00001. We will decide it by 20/12/2026 and e-mail you the outcome.',
    );
    expect(posted).toEqual([{ field: 'gstNo', value: '29AAPFU0939F1ZR', reason: '' }]);
    expect(await within(section()).findByText('Waiting')).toBeInTheDocument();
    expect(within(section()).getByText(/To be decided by 20\/12\/2026\./)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    serve([], {
      status: 409,
      message: 'A request to correct your mobile number is already waiting: COR-7Q2K9M4T.',
    });
    const u = userEvent.setup();
    renderWithProviders(<CorrectionSection />);
    await u.selectOptions(await screen.findByLabelText('Detail to correct'), 'Mobile number');
    await u.type(screen.getByLabelText('Correct value'), '9988776655');
    await u.click(screen.getByRole('button', { name: 'Ask for the correction' }));
    expect(
      await screen.findByText(
        'A request to correct your mobile number is already waiting: COR-7Q2K9M4T.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Correct value')).toHaveValue('9988776655');
  });
});
