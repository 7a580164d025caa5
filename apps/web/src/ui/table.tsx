import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { Skeleton } from './spinner';

/**
 * A table that scrolls sideways on narrow screens instead of overflowing the page. The wrapper is
 * positioned so that visually hidden (absolute) labels inside the table are clipped with it.
 */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full min-w-max text-left text-sm', className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        'border-b border-slate-200 bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-600',
        className,
      )}
      {...props}
    />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td
      className={cn('border-b border-slate-100 px-4 py-3 align-middle text-slate-800', className)}
      {...props}
    />
  );
}

/** The header row of a table; `label` says what a column's heading shows, its name by default. */
export function TableHead({
  columns,
  label = (column) => column,
}: {
  columns: readonly string[];
  label?(column: string): ReactNode;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <Th key={column}>{label(column)}</Th>
        ))}
      </tr>
    </thead>
  );
}

/** Placeholder rows that keep a table's shape while its data loads. */
export function SkeletonRows({
  rows,
  columns,
  cell = () => <Skeleton className="h-5 w-24" />,
}: {
  rows: number;
  columns: readonly string[];
  cell?(column: string): ReactNode;
}) {
  return Array.from({ length: rows }, (_, row) => (
    <tr key={row}>
      {columns.map((column) => (
        <Td key={column}>{cell(column)}</Td>
      ))}
    </tr>
  ));
}
