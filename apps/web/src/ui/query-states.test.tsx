import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UseQueryResult } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { QueryStates } from './query-states';

const query = (state: Partial<UseQueryResult<string>>) =>
  ({ isError: false, isPending: false, refetch: vi.fn(), ...state }) as UseQueryResult<string>;

describe('QueryStates', () => {
  it('shows what it read once it has', () => {
    render(
      <QueryStates query={query({ data: 'the nominee' })} errorText="Failed">
        {(data) => <p>{data}</p>}
      </QueryStates>,
    );
    expect(screen.getByText('the nominee')).toBeInTheDocument();
  });

  it('shows a placeholder while it loads, and nothing of the data', () => {
    render(
      <QueryStates query={query({ isPending: true })} errorText="Failed">
        {() => <p>data</p>}
      </QueryStates>,
    );
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    expect(screen.queryByText('data')).toBeNull();
  });

  it('says what failed, or its own words when the error has none, and reads again on Retry', async () => {
    const failed = query({ isError: true, error: new Error('') });
    render(
      <QueryStates query={failed} errorText="Failed to load your grievances">
        {() => <p>data</p>}
      </QueryStates>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load your grievances');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
  });
});
