import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { ChangePasswordDialog } from './change-password-dialog';

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

function open() {
  const onOpenChange = vi.fn();
  renderWithProviders(<ChangePasswordDialog userId="c1" open onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole('dialog', { name: 'Change Password' });
  const field = (label: string) => within(dialog).getByLabelText(label, { selector: 'input' });
  return { dialog, field, onOpenChange };
}

describe('ChangePasswordDialog', () => {
  it('shows the subtitle, three hidden fields with toggles and the buttons', async () => {
    const { dialog, field } = open();
    expect(within(dialog).getByText('Update your account password')).toBeInTheDocument();
    for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
      expect(field(label)).toHaveAttribute('type', 'password');
    }
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show new password' }));
    expect(field('New Password')).toHaveAttribute('type', 'text');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('requires all three fields', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { dialog } = open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByText('Current password is required')).toBeInTheDocument();
    expect(within(dialog).getByText('New password is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Please confirm your new password')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("says 'Password must be at least 6 characters long' and 'New passwords do not match'", async () => {
    const { dialog, field } = open();
    await userEvent.type(field('Current Password'), 'Demo@12345');
    await userEvent.type(field('New Password'), 'abc');
    await userEvent.type(field('Confirm New Password'), 'abd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(
      await within(dialog).findByText('Password must be at least 6 characters long'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('New passwords do not match')).toBeInTheDocument();
  });

  it('ticks the checklist live as the user types', async () => {
    const { dialog, field } = open();
    const length = within(dialog).getByText('At least 6 characters long').closest('li')!;
    const match = within(dialog).getByText('Passwords match').closest('li')!;
    expect(length).toHaveTextContent('(not met)');
    expect(match).toHaveTextContent('(not met)');
    await userEvent.type(field('New Password'), 'Secret@1');
    expect(length).toHaveTextContent('(met)');
    expect(length).not.toHaveTextContent('(not met)');
    await userEvent.type(field('Confirm New Password'), 'Secret@1');
    expect(match).not.toHaveTextContent('(not met)');
  });

  it('sends the current and new password, then clears, closes and confirms', async () => {
    let answer: (r: Response) => void = () => {};
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { dialog, field, onOpenChange } = open();
    await userEvent.type(field('Current Password'), 'Demo@12345');
    await userEvent.type(field('New Password'), 'Secret@1');
    await userEvent.type(field('Confirm New Password'), 'Secret@1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('button', { name: 'Updating...' })).toBeDisabled();
    answer(jsonResponse(200, { success: true, message: 'Password updated' }));
    expect(await screen.findByText('Password changed successfully!')).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(field('Current Password')).toHaveValue('');
    expect(field('New Password')).toHaveValue('');
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(String(url)).toBe('/api/users/c1');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({
      currentPassword: 'Demo@12345',
      password: 'Secret@1',
    });
  });

  it("shows the server's message for a wrong current password, or 'Failed to change password'", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        jsonResponse(400, { success: false, message: 'Current password is incorrect' }),
      );
    const { dialog, field, onOpenChange } = open();
    await userEvent.type(field('Current Password'), 'wrong-one');
    await userEvent.type(field('New Password'), 'Secret@1');
    await userEvent.type(field('Confirm New Password'), 'Secret@1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();

    fetchSpy.mockResolvedValue(new Response('', { status: 500 }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    await waitFor(() =>
      expect(within(dialog).getByText('Failed to change password')).toBeInTheDocument(),
    );
  });

  it('clears everything on Cancel', async () => {
    const { dialog, field, onOpenChange } = open();
    await userEvent.type(field('Current Password'), 'Demo@12345');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(field('Current Password')).toHaveValue('');
  });
});
