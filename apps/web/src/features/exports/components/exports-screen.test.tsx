import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { ExportsScreen } from './exports-screen';

/** Answers the link request with `answer`, and records each body sent. */
function serveLink(answer: () => Response) {
  const bodies: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    if (key !== 'POST /api/exports/link') throw new Error(`unexpected call ${key}`);
    bodies.push(JSON.parse(String(init?.body)));
    return answer();
  });
  return bodies;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

async function fillRange(from: string, to: string) {
  const user = userEvent.setup();
  await user.clear(screen.getByLabelText('From'));
  await user.type(screen.getByLabelText('From'), from);
  await user.clear(screen.getByLabelText('To'));
  await user.type(screen.getByLabelText('To'), to);
  return user;
}

describe('ExportsScreen', () => {
  it('asks for the link with the en-IN dates as ISO days, then starts the download', async () => {
    const bodies = serveLink(() =>
      jsonResponse(200, {
        success: true,
        url: '/api/exports/orders/2026-04-01/2026-06-30?expires=1&sub=c&sig=s',
        fileName: 'orders-2026-04-01-to-2026-06-30.csv',
      }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    renderWithProviders(<ExportsScreen />);
    expect(screen.getByRole('heading', { name: 'Exports', level: 1 })).toBeInTheDocument();
    const user = await fillRange('01/04/2026', '30/06/2026');
    await user.click(screen.getByRole('button', { name: 'Download' }));

    expect(
      await screen.findByText('Your download of orders-2026-04-01-to-2026-06-30.csv has started.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ kind: 'orders', range: { from: '2026-04-01', to: '2026-06-30' } }]);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.getAttribute('href')).toBe(
      '/api/exports/orders/2026-04-01/2026-06-30?expires=1&sub=c&sig=s',
    );
    expect(clicked[0]!.download).toBe('orders-2026-04-01-to-2026-06-30.csv');
  });

  it('refuses a date that is not one, and an end before the start, without asking the server', async () => {
    const bodies = serveLink(() => jsonResponse(500, {}));
    renderWithProviders(<ExportsScreen />);
    let user = await fillRange('31/02/2026', '01/03/2026');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByLabelText('From')).toHaveAccessibleDescription('Enter a date as DD/MM/YYYY');

    user = await fillRange('02/03/2026', '01/03/2026');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription(
      'The end date must be on or after the start date',
    );
    expect(bodies).toEqual([]);
  });

  it('asks for a financial year for the PDFs, and shows the server’s refusal', async () => {
    const bodies = serveLink(() =>
      jsonResponse(400, { success: false, message: 'financialYear: must be a financial year' }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ExportsScreen />);
    await user.selectOptions(
      screen.getByLabelText('What to export'),
      'Invoice PDFs of a financial year (ZIP)',
    );
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Financial year'), '2024-25');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'financialYear: must be a financial year',
    );
    expect(bodies).toEqual([{ kind: 'invoice-pdfs', financialYear: '2024-25' }]);
  });
});
