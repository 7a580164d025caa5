import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditNote, EInvoice, Invoice } from '@portal/contract';
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
  eInvoice: null,
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
  eInvoice: null,
  creditNotes: [],
  ...overrides,
});

// 64 hexadecimal characters, as the IRP gives them
const IRN = '835968acb2287ea54bb215abec45f8461141b4e15c80ececc5164cd76b016abf';
const CANCELLED_IRN = 'f956a73152fd6a45681abeec1f75969b24893bba125e8530c1a9452399c27a63';

const registered = (irn = IRN): EInvoice => ({
  status: 'Registered',
  irn,
  ackNo: '112010000000310',
  // 01:00 on 02/07/2026 in India
  ackDate: '2026-07-01T19:30:00.000Z',
  refusal: null,
});

const unregistered = (status: EInvoice['status'], overrides: Partial<EInvoice> = {}): EInvoice => ({
  status,
  irn: null,
  ackNo: null,
  ackDate: null,
  refusal: null,
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

const numberCell = (row: HTMLElement) => within(row).getAllByRole('cell')[0]!;

/** The text a sighted reader sees: without what is there for screen readers only. */
function seen(element: HTMLElement) {
  const copy = element.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
  return copy.textContent;
}

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

  it('says under each number how the IRP registered it, with the full IRN for screen readers and on hover', async () => {
    serve({
      'GET /api/invoices': page(
        [
          invoice(4),
          invoice(3, {
            eInvoice: { ...registered(CANCELLED_IRN), status: 'Cancelled' },
          }),
          invoice(2, {
            eInvoice: unregistered('Refused', {
              refusal: '3028: GSTIN is not present in invoice registration portal',
            }),
          }),
          invoice(1, {
            eInvoice: registered(),
            creditNotes: [note({ pdfReady: false, eInvoice: unregistered('Being registered') })],
          }),
        ],
        null,
      ),
    });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('INV/26-27/000004')).toBeInTheDocument();
    const [plain, cancelled, refused, issued, credit] = rows().map(numberCell);

    // where e-invoicing does not apply, the number alone
    expect(plain).toHaveAccessibleName('INV/26-27/000004');

    expect(seen(issued!)).toContain('IRN 835968ac…6abf Ack No 112010000000310 · 02/07/2026');
    expect(issued).toHaveAccessibleName(
      expect.stringContaining(`IRN ${IRN} Ack No 112010000000310 · 02/07/2026`),
    );
    // heard once: the short form is for the eye only
    expect(issued).not.toHaveAccessibleName(expect.stringContaining('…'));
    expect(within(issued!).getByTitle(IRN)).toHaveTextContent(/^IRN 835968ac…6abf$/);

    expect(seen(cancelled!)).toContain('e-Invoice cancelled (IRN f956a731…7a63)');
    expect(seen(cancelled!)).not.toContain('Ack No');
    expect(cancelled).toHaveAccessibleName(
      expect.stringContaining(`e-Invoice cancelled (IRN ${CANCELLED_IRN})`),
    );
    expect(within(cancelled!).getByTitle(CANCELLED_IRN)).toBeInTheDocument();

    const reasons = within(refused!).getByText(
      'e-Invoice not registered: 3028: GSTIN is not present in invoice registration portal',
    );
    expect(reasons).toHaveClass('text-red-700');

    expect(seen(credit!)).toContain('e-Invoice being registered');
    expect(credit).not.toHaveAccessibleName(expect.stringContaining('IRN'));
  });

  it('says a document is being registered in place of preparing its PDF, and asks again until the IRP has answered', async () => {
    let answered = false;
    serve({
      'GET /api/invoices': () =>
        page(
          [
            invoice(
              1,
              answered
                ? { eInvoice: registered() }
                : { pdfReady: false, eInvoice: unregistered('Being registered') },
            ),
          ],
          null,
        )(),
    });
    renderWithProviders(<InvoicesScreen />);
    expect(await screen.findByText('INV/26-27/000001')).toBeInTheDocument();
    const [row] = rows();
    expect(row).toHaveTextContent('e-Invoice being registered');
    const pdf = within(row!).getAllByRole('cell').at(-1);
    expect(pdf).toHaveTextContent('Being registered...');
    expect(pdf).not.toHaveTextContent('Preparing PDF...');
    expect(within(row!).queryByRole('link')).not.toBeInTheDocument();
    answered = true;
    expect(
      await screen.findByRole(
        'link',
        { name: 'Download the PDF of Invoice INV/26-27/000001' },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByTitle(IRN)).toHaveTextContent('IRN 835968ac…6abf');
    expect(screen.queryByText(/being registered/i)).not.toBeInTheDocument();
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
