import type { Key, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Skeleton } from './spinner';

export interface Column<Row> {
  /** The column's heading, and on a phone the label beside each of its values. */
  header: string;
  cell(row: Row): ReactNode;
  /** The row's buttons: unlabelled on a phone, where each one spans the card. */
  actions?: boolean;
  /** What the column shows while the rows load. */
  skeleton?: ReactNode;
}

export interface DataTableProps<Row> {
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): Key;
  /** Shows `skeletonRows` placeholder rows instead of the rows. */
  loading?: boolean;
  skeletonRows?: number;
  /** Marks the table busy while it refreshes. */
  busy?: boolean;
  /** Classes of the <table> from 768 px up, such as a minimum width. */
  className?: string;
}

/*
 * One markup, two layouts. From 768 px up it is an ordinary table, which scrolls inside its own
 * box if it must. Below 768 px the same elements are restyled into a list of cards: one card per
 * row, each value beside its (visual) label, the row's buttons full width, nothing wider than the
 * screen. The header row stays in the markup, visually hidden, so screen readers keep the table's
 * headings on a phone too; the visual labels are hidden from them so nothing is read twice.
 */
const phone = {
  wrapper: 'relative w-full md:overflow-x-auto',
  table: 'w-full text-left text-sm max-md:block md:min-w-max',
  thead: 'max-md:sr-only',
  tbody: 'max-md:block max-md:space-y-3 max-md:p-3',
  tr: 'max-md:block max-md:rounded-lg max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-xs',
  td: 'max-md:grid max-md:grid-cols-[7rem_minmax(0,1fr)] max-md:items-start max-md:gap-3 max-md:border-0 max-md:px-0 max-md:py-1.5',
  actionsTd:
    'max-md:mt-2 max-md:block max-md:border-0 max-md:border-t max-md:border-slate-100 max-md:px-0 max-md:pt-3 max-md:pb-0',
  label: 'text-xs font-semibold uppercase tracking-wide text-slate-600 md:hidden',
};

const cellClass = 'border-b border-slate-100 px-4 py-3 align-middle text-slate-800';

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  loading = false,
  skeletonRows = 2,
  busy,
  className,
}: DataTableProps<Row>) {
  return (
    <div className={phone.wrapper}>
      <table className={cn(phone.table, className)} aria-busy={busy ?? loading}>
        <caption className="sr-only">{caption}</caption>
        <thead className={phone.thead}>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className="border-b border-slate-200 bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-600"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={phone.tbody}>
          {loading
            ? Array.from({ length: skeletonRows }, (_, index) => (
                <tr key={index} className={phone.tr}>
                  {columns.map((column) => (
                    <td key={column.header} className={cn(cellClass, phone.td)}>
                      <span aria-hidden="true" className={phone.label}>
                        {column.header}
                      </span>
                      {column.skeleton ?? <Skeleton className="h-5 w-24" />}
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => (
                <tr key={rowKey(row)} className={phone.tr}>
                  {columns.map((column) =>
                    column.actions ? (
                      <td key={column.header} className={cn(cellClass, phone.actionsTd)}>
                        {column.cell(row)}
                      </td>
                    ) : (
                      <td key={column.header} className={cn(cellClass, phone.td)}>
                        <span aria-hidden="true" className={phone.label}>
                          {column.header}
                        </span>
                        <div className="min-w-0">{column.cell(row)}</div>
                      </td>
                    ),
                  )}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row's buttons side by side; on a phone stacked, each the card's full width. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <div className="flex items-center gap-2 max-md:flex-col max-md:items-stretch max-md:[&>*]:w-full">
      {children}
    </div>
  );
}
