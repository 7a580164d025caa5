import { FileDown, Loader2, ReceiptText } from 'lucide-react';
import { Link } from 'react-router';
import type { CreditNote, Invoice, InvoiceStatus } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { formatDate, formatPaise } from '@/lib/format';
import { Badge, type BadgeTone } from '@/ui/badge';
import { Card } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PageTitle } from '@/ui/page-title';
import { PagedList } from '@/ui/paged-list';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { useInvoices } from '../api/get-invoices';
import { EInvoiceLine } from './e-invoice-line';

/** A row of the list: an invoice, or a credit note listed under the invoice it refers to. */
type Row =
  | { kind: 'invoice'; document: Invoice }
  | { kind: 'credit-note'; document: CreditNote; invoice: Invoice };

const statusTone: Record<InvoiceStatus, BadgeTone> = {
  Issued: 'green',
  'Partly refunded': 'yellow',
  Refunded: 'grey',
};

const rowsOf = (invoices: readonly Invoice[]): Row[] =>
  invoices.flatMap((invoice) => [
    { kind: 'invoice' as const, document: invoice },
    ...invoice.creditNotes.map((note) => ({
      kind: 'credit-note' as const,
      document: note,
      invoice,
    })),
  ]);

const nameOf = (row: Row) =>
  row.kind === 'invoice' ? `Invoice ${row.document.number}` : `Credit note ${row.document.number}`;

const columns: Column<Row>[] = [
  {
    header: 'Number',
    cell: (row) =>
      row.kind === 'invoice' ? (
        <span className="block">
          <span className="font-mono text-sm font-medium text-slate-900">
            {row.document.number}
          </span>
          {row.document.eInvoice && <EInvoiceLine eInvoice={row.document.eInvoice} />}
        </span>
      ) : (
        <span className="block md:pl-4">
          <span className="block text-xs font-semibold text-slate-700">Credit note</span>
          <span className="font-mono text-sm text-slate-900">{row.document.number}</span>
          <span className="block text-xs text-slate-600">against {row.invoice.number}</span>
          {row.document.eInvoice && <EInvoiceLine eInvoice={row.document.eInvoice} />}
        </span>
      ),
  },
  { header: 'Date', cell: (row) => formatDate(row.document.issuedAt) },
  { header: 'Taxable value', cell: (row) => formatPaise(row.document.taxablePaise) },
  { header: 'Tax', cell: (row) => formatPaise(row.document.taxPaise) },
  { header: 'Total', cell: (row) => formatPaise(row.document.totalPaise) },
  {
    header: 'Status',
    cell: (row) =>
      row.kind === 'invoice' ? (
        <Badge tone={statusTone[row.document.status]}>{row.document.status}</Badge>
      ) : (
        <Badge tone="blue">Credited</Badge>
      ),
  },
  {
    header: 'PDF',
    actions: true,
    cell: (row) => (
      <RowActions>
        {row.document.pdfReady ? (
          <PdfLink row={row} />
        ) : (
          // drawn just after issue, once the IRP has registered it: the list asks again until
          // the link opens it
          <span className="inline-flex h-11 items-center gap-2 text-sm text-slate-600 md:h-8">
            <Loader2 className="h-4 w-4 motion-safe:animate-spin" aria-hidden="true" />
            {row.document.eInvoice?.status === 'Being registered'
              ? 'Being registered...'
              : 'Preparing PDF...'}
          </span>
        )}
      </RowActions>
    ),
  },
];

/** A signed link: the new tab it opens needs no bearer token. */
function PdfLink({ row }: { row: Row }) {
  return (
    <a
      href={row.document.pdfUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Download the PDF of ${nameOf(row)}`}
      className="inline-flex h-11 items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 md:h-8"
    >
      <FileDown className="h-4 w-4" aria-hidden="true" />
      Download PDF
    </a>
  );
}

/** The customer's GST tax invoices, newest first, each followed by its credit notes. */
export function InvoicesScreen() {
  const query = useInvoices();

  return (
    <div>
      <PageTitle>Invoices</PageTitle>
      <Card>
        <PagedList
          query={query}
          itemsOf={(page) => page.invoices}
          empty={
            <EmptyState
              icon={<ReceiptText className="h-10 w-10" />}
              title="No invoices yet"
              description="A tax invoice is issued for each plan you pay for."
              action={
                <Link
                  to={paths.plans}
                  className="mt-2 inline-flex h-11 items-center rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 md:h-10"
                >
                  See the plans
                </Link>
              }
            />
          }
          errorText={errorMessage(query.error, 'Failed to load invoices')}
          loadMoreLabel="Load more invoices"
          loadingMoreLabel="Loading more invoices..."
        >
          {(invoices, { loading, loadingMore }) => (
            <DataTable
              caption="Invoices and credit notes"
              columns={columns}
              rows={rowsOf(invoices)}
              rowKey={(row) => row.document._id}
              loading={loading}
              busy={loadingMore}
            />
          )}
        </PagedList>
      </Card>
    </div>
  );
}
