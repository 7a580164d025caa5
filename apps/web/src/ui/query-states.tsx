import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/http';
import { Button } from './button';

/**
 * A card's states for the one read it shows: what failed with Retry, a placeholder while it
 * loads, then what it read.
 */
export function QueryStates<T>({
  query,
  errorText,
  children,
}: {
  query: UseQueryResult<T>;
  /** Said when the error carries no message of its own. */
  errorText: string;
  children(data: T): ReactNode;
}) {
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="text-sm text-red-700">{errorMessage(query.error, errorText)}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (query.isPending) {
    return <div className="h-16 animate-pulse rounded-md bg-slate-100" aria-label="Loading" />;
  }
  return children(query.data);
}
