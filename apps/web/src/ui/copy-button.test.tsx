import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from './copy-button';
import { Toaster } from './toaster';

const renderWithToaster = (button: ReactElement) =>
  render(
    <>
      {button}
      <Toaster />
    </>,
  );

afterEach(() => {
  vi.useRealTimers();
});

/** The browser refuses to write to the clipboard (no permission, or the page not in focus). */
const refuseClipboard = () =>
  vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));

describe('CopyButton', () => {
  it('beside a value: an icon named Copy {label} that copies the whole value and says so in a toast', async () => {
    const user = userEvent.setup();
    renderWithToaster(<CopyButton value="sbk_at_0123456789" label="Access Token" />);
    const button = screen.getByRole('button', { name: 'Copy Access Token' });
    expect(button).toHaveTextContent('');
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('sbk_at_0123456789');
    expect(await screen.findByText('Access Token copied to clipboard!')).toBeInTheDocument();
    // the toast says it: the button does not change
    expect(screen.getByRole('button', { name: 'Copy Access Token' })).toBeInTheDocument();
  });

  it("with its label shown: reads Copy {label}, says 'Copied' in a live region, then reads as before", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithToaster(<CopyButton value={'abcde-fghjk\nklmno-pqrst'} label="codes" showLabel />);
    const button = screen.getByRole('button', { name: 'Copy codes' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('abcde-fghjk\nklmno-pqrst');
    expect(button).toHaveTextContent('Copied');
    expect(screen.getByText('Copied')).toHaveAttribute('aria-live', 'polite');
    expect(screen.queryByText('codes copied to clipboard!')).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(2000));
    expect(button).toHaveTextContent('Copy codes');
  });

  it('says in an error toast when the browser refuses the copy', async () => {
    const user = userEvent.setup();
    const refused = refuseClipboard();
    renderWithToaster(<CopyButton value="PTN-1" label="Partner ID" />);
    await user.click(screen.getByRole('button', { name: 'Copy Partner ID' }));
    expect(await screen.findByText('Could not copy the partner id')).toBeInTheDocument();
    expect(screen.queryByText('Partner ID copied to clipboard!')).not.toBeInTheDocument();
    refused.mockRestore();
  });

  it('with its label shown, does not say Copied when the copy is refused', async () => {
    const user = userEvent.setup();
    const refused = refuseClipboard();
    renderWithToaster(<CopyButton value="JBSWY3DP" label="key" showLabel />);
    const button = screen.getByRole('button', { name: 'Copy key' });
    await user.click(button);
    expect(await screen.findByText('Could not copy the key')).toBeInTheDocument();
    expect(button).toHaveTextContent('Copy key');
    refused.mockRestore();
  });
});
