import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';
import { toast } from '@/lib/toast';
import { Toaster } from './toaster';

/** A screen with a main region and a button that opens a dialog, as the app's screens are. */
function Screen({ removeOpenerOnClose = false }: { removeOpenerOnClose?: boolean }) {
  const [open, setOpen] = useState(false);
  const [openerShown, setOpenerShown] = useState(true);
  return (
    <main id="main-content" tabIndex={-1}>
      {openerShown && (
        <button type="button" onClick={() => setOpen(true)}>
          Open details
        </button>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Details"
        description="What there is to know."
      >
        <button
          type="button"
          onClick={() => {
            if (removeOpenerOnClose) setOpenerShown(false);
            setOpen(false);
          }}
        >
          Done
        </button>
      </Dialog>
    </main>
  );
}

describe('Dialog', () => {
  it('returns focus to the button that opened it after Escape', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const opener = screen.getByRole('button', { name: 'Open details' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Details' })).toContainElement(
      document.activeElement as HTMLElement,
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it('returns focus to the opener after its own close button or a button inside', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const opener = screen.getByRole('button', { name: 'Open details' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(opener).toHaveFocus());
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('puts focus on the main content when the opener has gone meanwhile', async () => {
    const user = userEvent.setup();
    render(<Screen removeOpenerOnClose />);
    await user.click(screen.getByRole('button', { name: 'Open details' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
    expect(document.activeElement).not.toBe(document.body);
  });
});

describe('a dialog opening', () => {
  it('takes the success notices of the screen behind away, and leaves its errors', async () => {
    render(
      <>
        <Screen />
        <Toaster />
      </>,
    );
    act(() => {
      toast.success('Enterprise plan selected!');
      toast.error('Could not load the plans');
    });
    expect(await screen.findByText('Enterprise plan selected!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open details' }));
    expect(await screen.findByRole('dialog', { name: 'Details' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText('Enterprise plan selected!')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Could not load the plans')).toBeInTheDocument();
  });
});
