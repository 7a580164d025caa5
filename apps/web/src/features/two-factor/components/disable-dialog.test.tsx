import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { twoFactorMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { DisableDialog } from './disable-dialog';

let fetchSpy: MockInstance<typeof fetch>;
/** The bodies sent to turn the app off. */
const disableBodies = () =>
  fetchSpy.mock.calls
    .filter(([url]) => String(url).endsWith('/two-factor/disable'))
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** Turning off is refused as a used code first, then accepted. */
function serve() {
  let tries = 0;
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path !== '/api/security/two-factor/disable') {
      return jsonResponse(404, { success: false, message: 'unexpected call' });
    }
    tries += 1;
    return tries === 1
      ? jsonResponse(400, { success: false, message: twoFactorMessages.wrongCode })
      : jsonResponse(200, { success: true, message: twoFactorMessages.disabled });
  });
}

beforeEach(() => {
  useSessionStore.setState({ user: testUser(), token: 'tok', isAuthenticated: true });
});
afterEach(() => {
  fetchSpy.mockRestore();
  useSessionStore.getState().clearSession();
});

describe('DisableDialog', () => {
  it('takes a code and the password, says why it is refused, and closes once the app is off', async () => {
    serve();
    const onOpenChange = vi.fn();
    const onDisabled = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<DisableDialog open onOpenChange={onOpenChange} onDisabled={onDisabled} />);
    const dialog = screen.getByRole('dialog', { name: 'Turn off the authenticator app' });
    expect(dialog).toHaveAccessibleDescription(
      'Sign-in will ask for a code sent by e-mail again. Your recovery codes stop working.',
    );
    const turnOff = within(dialog).getByRole('button', { name: 'Turn off' });
    const code = within(dialog).getByLabelText('Code from the app, or a recovery code');
    expect(code).toHaveAttribute('autocapitalize', 'off');
    expect(code).toHaveAttribute('spellcheck', 'false');
    expect(turnOff).toBeDisabled();
    await user.type(code, ' abcde-fghjk ');
    expect(turnOff).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    expect(turnOff).toBeEnabled();

    await user.click(turnOff);
    expect(await within(dialog).findByText(twoFactorMessages.wrongCode)).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(onDisabled).not.toHaveBeenCalled();
    await user.click(turnOff);
    expect(await screen.findByText(twoFactorMessages.disabled)).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onDisabled).toHaveBeenCalledTimes(1);
    // the code as the contract takes it, without the blanks around it
    expect(disableBodies()).toEqual([
      { code: 'abcde-fghjk', password: 'Secret@123' },
      { code: 'abcde-fghjk', password: 'Secret@123' },
    ]);
  });

  it('leaves the customer with the app on when Cancel is pressed', async () => {
    serve();
    const onOpenChange = vi.fn();
    renderWithProviders(<DisableDialog open onOpenChange={onOpenChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(disableBodies()).toEqual([]);
  });
});
