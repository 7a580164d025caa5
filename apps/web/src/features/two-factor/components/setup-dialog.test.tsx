import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { twoFactorMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { SetupDialog } from './setup-dialog';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcde-fghj${i}`);

let fetchSpy: MockInstance<typeof fetch>;
/** The bodies sent to turn the app on. */
const enableBodies = () =>
  fetchSpy.mock.calls
    .filter(([url]) => String(url).endsWith('/two-factor/enable'))
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** The set-up starts; turning on is refused with `refusal` first, then accepted. */
function serve(refusal: string) {
  let tries = 0;
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path === '/api/security/two-factor/setup') {
      return jsonResponse(200, {
        success: true,
        message: twoFactorMessages.setupStarted,
        data: { secret: SECRET, otpauthUri: 'otpauth://totp/x', qrCode: 'data:image/svg+xml,x' },
      });
    }
    if (path === '/api/security/two-factor/enable') {
      tries += 1;
      return tries === 1
        ? jsonResponse(400, { success: false, message: refusal })
        : jsonResponse(200, {
            success: true,
            message: twoFactorMessages.enabled,
            data: { recoveryCodes },
          });
    }
    return jsonResponse(404, { success: false, message: 'unexpected call' });
  });
}

beforeEach(() => {
  useSessionStore.setState({ user: testUser(), token: 'tok', isAuthenticated: true });
});
afterEach(() => {
  fetchSpy.mockRestore();
  useSessionStore.getState().clearSession();
});

describe('SetupDialog', () => {
  it('shows the QR code and its key to copy, takes the first code and the password, then the recovery codes', async () => {
    serve(twoFactorMessages.wrongPassword);
    const user = userEvent.setup();
    const onEnabled = vi.fn();
    renderWithProviders(<SetupDialog open onOpenChange={vi.fn()} onEnabled={onEnabled} />);
    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    expect(
      await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Set-up key')).toHaveValue(SECRET);
    expect(within(dialog).getByLabelText('Set-up key')).toHaveAccessibleDescription(
      'Cannot scan? Type this key into the app instead.',
    );
    const copyKey = within(dialog).getByRole('button', { name: 'Copy key' });
    await user.click(copyKey);
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(copyKey).toHaveTextContent('Copied');

    const turnOn = within(dialog).getByRole('button', { name: 'Turn on' });
    const code = within(dialog).getByLabelText('Code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '12a3 456');
    expect(code).toHaveValue('123 456');
    expect(turnOn).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Password'), 'not the password');
    expect(turnOn).toBeEnabled();
    await user.click(turnOn);
    expect(await within(dialog).findByText(twoFactorMessages.wrongPassword)).toBeInTheDocument();
    // the code as the contract takes it: the space the app shows is dropped
    expect(enableBodies()).toEqual([{ code: '123456', password: 'not the password' }]);
    expect(onEnabled).not.toHaveBeenCalled();

    await user.click(turnOn);
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(onEnabled).toHaveBeenCalledTimes(1);
    expect(within(saved).getAllByRole('listitem')).toHaveLength(10);
    const copyCodes = within(saved).getByRole('button', { name: 'Copy codes' });
    await user.click(copyCodes);
    expect(await navigator.clipboard.readText()).toBe(recoveryCodes.join('\n'));
    expect(copyCodes).toHaveTextContent('Copied');
    expect(await screen.findByText(twoFactorMessages.enabled)).toBeInTheDocument();
  });

  it('waits for the six digits of the code, the middle space aside', async () => {
    serve(twoFactorMessages.wrongCode);
    const user = userEvent.setup();
    renderWithProviders(<SetupDialog open onOpenChange={vi.fn()} />);
    const code = await screen.findByLabelText('Code from the app');
    await user.type(screen.getByLabelText('Password'), 'Secret@123');
    const turnOn = screen.getByRole('button', { name: 'Turn on' });
    await user.type(code, '123 45');
    expect(turnOn).toBeDisabled();
    await user.type(code, '6');
    expect(turnOn).toBeEnabled();
  });
});
