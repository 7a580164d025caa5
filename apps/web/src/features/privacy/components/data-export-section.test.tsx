import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { privacyMessages, type DataExport } from '@portal/contract';
import { formatDateTime } from '@/lib/format';
import { jsonResponse } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { DataExportSection } from './data-export-section';

const requested: DataExport = {
  id: 'c9a4b8f2-1e0d-4f6a-9b3c-2d1e0f9a8b7c',
  status: 'preparing',
  requestedAt: '2026-11-24T04:30:00.000Z',
  readyAt: null,
  expiresAt: null,
};
const ready: DataExport = {
  ...requested,
  status: 'ready',
  readyAt: '2026-11-24T04:31:00.000Z',
  expiresAt: '2026-11-25T04:31:00.000Z',
};

let fetchSpy: MockInstance<typeof fetch>;
const posts = () =>
  fetchSpy.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST');

/** The server: the latest request as `latest` holds it; a POST answers `ask`. */
function serve(server: { latest: DataExport | null; ask?: { status: number; message: string } }) {
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    if ((init?.method ?? 'GET') === 'POST') {
      const answer = server.ask ?? { status: 202, message: privacyMessages.exportRequested };
      if (answer.status !== 202) {
        return jsonResponse(answer.status, { success: false, message: answer.message });
      }
      server.latest = requested;
      return jsonResponse(202, { success: true, message: answer.message, data: requested });
    }
    return jsonResponse(200, { success: true, data: server.latest });
  });
}

afterEach(() => vi.restoreAllMocks());

describe('Download my data', () => {
  it('asks for the data, says it is being prepared, and does not let it be asked twice', async () => {
    serve({ latest: null });
    renderWithProviders(<DataExportSection />, { path: '/privacy' });
    const button = await screen.findByRole('button', { name: 'Ask for my data' });
    expect(screen.getByRole('status')).toHaveTextContent('');
    await userEvent.click(button);
    expect(await screen.findByText(privacyMessages.exportRequested)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      `We are preparing your data (asked ${formatDateTime(requested.requestedAt)})`,
    );
    expect(screen.getByRole('button', { name: 'Ask for my data' })).toBeDisabled();
    expect(posts()).toHaveLength(1);
  });

  it('says until when the mailed link works once the data is ready', async () => {
    serve({ latest: ready });
    renderWithProviders(<DataExportSection />, { path: '/privacy' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Your data is ready. Use the link we e-mailed you; it works until ${formatDateTime(ready.expiresAt)}.`,
    );
    expect(screen.getByRole('button', { name: 'Ask for my data' })).toBeEnabled();
  });

  it('shows the server’s refusal, and a failed request can be asked again', async () => {
    serve({
      latest: { ...requested, status: 'failed' },
      ask: { status: 429, message: privacyMessages.exportTooSoon },
    });
    renderWithProviders(<DataExportSection />, { path: '/privacy' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We could not prepare your data. Please ask again.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ask for my data' }));
    expect(await screen.findByText(privacyMessages.exportTooSoon)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Ask for my data' })).toBeEnabled(),
    );
  });
});
