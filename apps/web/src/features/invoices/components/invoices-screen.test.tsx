import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditNote, Invoice } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { InvoicesScreen } from './invoices-screen';

const note = (overrides: Partial<CreditNote> = {}): CreditNote => ({
  _id: 'cn-1',
  number: 'CN/26-27/000001',
  issuedAt: '2026-07-02T06:00:00.000Z',
  taxablePaise: 847_46,
  cgstPaise: 0,
  sgstPaise: 0,
  igstPaise: 152_54,
  taxPaise: 152_54,
  totalPaise: 1_000_00,
  pdfUrl: '/api/credit-notes/cn-1/pdf?sig=n',
  pdfReady: true,
  ...overrides,
});

const invoice = (n: number, overrides: Partial<Invoice> = {}): Invoice => ({
  _id: `inv-${n}`,
  number: `INV/26-27/${String(n).padStart(6, '0')}`,
  issuedAt: '2026-07-01T06:00:00.000Z',
  orderId: `order-${n}`,
  status: 'Issued',
  taxablePaise: 5_210_82,
  cgstPaise: 0,
  sgstPaise: 0,
  igstPaise: 937_95,
  taxPaise: 937_95,
  totalPaise: 6_148_77,
  pdfUrl: `/api/invoices/inv-${n}/pdf?sig=i`,
  pdfReady: true,
  creditNotes: [],
  ...overrides,
});

type Answer = () => Response | Promise<Response>;

/** Answers each `METHOD url` from `routes`; any other call fails the test. */
function serve(routes: Record<string, Answer>) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(key);
    const route = routes[key];
    if (!route) throw new Error(`unexpected call ${key}`);
    return route();
  });
  return calls;
}

const page = (invoices: Invoice[], nextCursor: string | null) => () =>
  jsonResponse(200, { success: true, invoices, nextCursor });

const rows = () => [...document.querySelectorAll('tbody tr')] as HTMLElement[];

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('InvoicesScreen', () => {
  it('lists each invoice with its amounts and status, its credit notes beneath it, and their PDFs', async () => {
    serve({
      'GET /api/invoices': page(
        [invoice(2), invoice(1, { status: 'Partly refunded', creditNotes: [note()] })],
        null,
      ),
    });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('INV/26-27/000002')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Invoices', level: 1 })).toBeInTheDocument();
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('INV/26-27/000002'),
      expect.stringContaining('INV/26-27/000001'),
      expect.stringContaining('CN/26-27/000001'),
    ]);
    const [newest, refunded, credit] = rows();
    expect(newest).toHaveTextContent('01/07/2026');
    expect(newest).toHaveTextContent('₹5,210.82');
    expect(newest).toHaveTextContent('₹937.95');
    expect(newest).toHaveTextContent('₹6,148.77');
    expect(newest).toHaveTextContent('Issued');
    expect(refunded).toHaveTextContent('Partly refunded');
    expect(credit).toHaveTextContent('Credit note');
    expect(credit).toHaveTextContent('against INV/26-27/000001');
    expect(credit).toHaveTextContent('02/07/2026');
    expect(credit).toHaveTextContent('₹847.46');
    expect(credit).toHaveTextContent('₹152.54');
    expect(credit).toHaveTextContent('₹1,000.00');
    expect(credit).toHaveTextContent('Credited');

    const invoicePdf = within(newest!).getByRole('link', {
      name: 'Download the PDF of Invoice INV/26-27/000002',
    });
    expect(invoicePdf).toHaveAttribute('href', '/api/invoices/inv-2/pdf?sig=i');
    expect(invoicePdf).toHaveAttribute('target', '_blank');
    expect(invoicePdf).toHaveAttribute('rel', 'noopener noreferrer');
    expect(
      within(credit!).getByRole('link', {
        name: 'Download the PDF of Credit note CN/26-27/000001',
      }),
    ).toHaveAttribute('href', '/api/credit-notes/cn-1/pdf?sig=n');
  });

  it('says a PDF is being prepared rather than link it, and links it once the list says it is ready', async () => {
    let ready = false;
    serve({
      'GET /api/invoices': () =>
        page([invoice(1, { pdfReady: ready, creditNotes: [note({ pdfReady: ready })] })], null)(),
    });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('INV/26-27/000001')).toBeInTheDocument();
    const [issued, credit] = rows();
    for (const row of [issued!, credit!]) {
      expect(row).toHaveTextContent('Preparing PDF...');
      expect(within(row).queryByRole('link')).not.toBeInTheDocument();
    }
    ready = true;
    // the list asks again within seconds while a PDF is being prepared
    expect(
      await screen.findByRole(
        'link',
        { name: 'Download the PDF of Invoice INV/26-27/000001' },
        { timeout: 5_000 },
      ),
    ).toHaveAttribute('href', '/api/invoices/inv-1/pdf?sig=i');
    expect(screen.queryByText('Preparing PDF...')).not.toBeInTheDocument();
  });

  it('loads the next page on demand, and offers no more after the last', async () => {
    const calls = serve({
      'GET /api/invoices': page([invoice(3), invoice(2)], 'after-2'),
      'GET /api/invoices?cursor=after-2': page([invoice(1)], null),
    });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('INV/26-27/000003')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more invoices' }));
    expect(await screen.findByText('INV/26-27/000001')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more invoices' })).not.toBeInTheDocument();
    expect(calls).toEqual(['GET /api/invoices', 'GET /api/invoices?cursor=after-2']);
  });

  it('says what to do when there is no invoice yet', async () => {
    serve({ 'GET /api/invoices': page([], null) });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    expect(
      screen.getByText('A tax invoice is issued for each plan you pay for.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/plans');
  });

  it('says the list failed to load, and loads it on Retry', async () => {
    let fail = true;
    serve({
      'GET /api/invoices': () =>
        fail
          ? jsonResponse(500, { success: false, message: 'Something went wrong' })
          : page([invoice(1)], null)(),
    });
    renderWithProviders(<InvoicesScreen />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('INV/26-27/000001')).toBeInTheDocument();
  });
});
