import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, RowActions, type Column } from './table';

interface Row {
  id: string;
  name: string;
  status: string;
}

const columns: Column<Row>[] = [
  { header: 'Name', cell: (row) => row.name },
  { header: 'Status', cell: (row) => row.status },
  {
    header: 'Actions',
    actions: true,
    cell: (row) => (
      <RowActions>
        <button type="button">Open {row.name}</button>
      </RowActions>
    ),
  },
];

const rows: Row[] = [
  { id: '1', name: 'First', status: 'Approved' },
  { id: '2', name: 'Second', status: 'Pending' },
];

describe('DataTable', () => {
  it('is one table with its caption, column headings and a row per item', () => {
    render(<DataTable caption="Things" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'Things' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Status', 'Actions']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('labels every value with its heading for the phone cards, hidden from screen readers', () => {
    render(<DataTable caption="Things" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const [, first] = screen.getAllByRole('row');
    const [name, status, actions] = within(first!).getAllByRole('cell');
    expect(name!.firstElementChild).toHaveTextContent('Name');
    expect(name!.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    expect(status!.firstElementChild).toHaveTextContent('Status');
    expect(status).toHaveTextContent('StatusApproved');
    // the buttons say what they do: no label above them
    expect(actions).toHaveTextContent(/^Open First$/);
  });

  it('shows placeholder rows and says it is busy while loading', () => {
    render(
      <DataTable
        caption="Things"
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        loading
        skeletonRows={3}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });
});
