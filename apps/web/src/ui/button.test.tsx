import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

describe('Button', () => {
  it('when busy, reads as disabled, ignores presses and keeps focus', async () => {
    const onClick = vi.fn();
    const { rerender } = render(<Button onClick={onClick}>Download</Button>);
    const button = screen.getByRole('button', { name: 'Download' });
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);

    rerender(
      <Button onClick={onClick} busy>
        Download
      </Button>,
    );
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.keyboard('{Enter}');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button).toHaveFocus();
  });

  it('when busy, does not send its form again', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <input aria-label="Code" />
        <Button type="submit" busy>
          Verify
        </Button>
      </form>,
    );
    await userEvent.type(screen.getByLabelText('Code'), '123456{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
