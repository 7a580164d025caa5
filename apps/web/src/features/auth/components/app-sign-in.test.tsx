import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authMessages, twoFactorMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { fillCredentials } from '@/test/sign-in';
import { LoginForm } from './login-form';

const signedIn = () =>
  jsonResponse(200, {
    success: true,
    message: authMessages.loginSuccessful,
    token: 'access-token',
    user: testUser(),
  });

function mockServer(routes: Record<string, (body: unknown) => Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const handler = routes[String(url)];
    if (!handler) throw new Error(`unexpected call to ${String(url)}`);
    return handler(init?.body ? JSON.parse(String(init.body)) : undefined);
  });
}

const loginAnswer = (secondFactor?: 'email' | 'app') => () =>
  jsonResponse(200, {
    success: true,
    tempToken: 'temp-token',
    message: secondFactor === 'app' ? twoFactorMessages.appCodeAsked : authMessages.codeSent,
    ...(secondFactor ? { secondFactor } : {}),
  });

async function passwordStep() {
  const u = await fillCredentials();
  await u.click(screen.getByRole('button', { name: 'Secure Login' }));
  const modal = await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
  return { u, modal: within(modal) };
}

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('the sign-in modal for an account with the authenticator app', () => {
  it("asks for the app's code, offers no resend, and sends the code to verify-2fa", async () => {
    const verified: unknown[] = [];
    mockServer({
      '/api/auth/login': loginAnswer('app'),
      '/api/auth/verify-2fa': (body) => {
        verified.push(body);
        return signedIn();
      },
    });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const { u, modal } = await passwordStep();
    expect(modal.getByText(/code from your authenticator app/)).toBeInTheDocument();
    expect(modal.queryByRole('button', { name: 'Resend Code' })).not.toBeInTheDocument();
    const verify = modal.getByRole('button', { name: 'Verify & Login' });
    expect(verify).toBeDisabled();
    await u.type(modal.getByLabelText('Code from your authenticator app'), '12a3456');
    expect(modal.getByLabelText('Code from your authenticator app')).toHaveValue('123456');
    await u.click(verify);
    await vi.waitFor(() =>
      expect(verified).toEqual([{ tempToken: 'temp-token', verificationCode: '123456' }]),
    );
    await vi.waitFor(() => expect(useSessionStore.getState().isAuthenticated).toBe(true));
  });

  it('takes a recovery code instead, and shows the refusal inside the modal', async () => {
    const sent: unknown[] = [];
    let answers = 0;
    mockServer({
      '/api/auth/login': loginAnswer('app'),
      '/api/auth/verify-recovery-code': (body) => {
        sent.push(body);
        answers += 1;
        return answers === 1
          ? jsonResponse(400, { success: false, message: authMessages.invalidCode })
          : signedIn();
      },
    });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const { u, modal } = await passwordStep();
    await u.click(modal.getByRole('button', { name: 'Use a recovery code' }));
    const field = modal.getByLabelText('Recovery code');
    expect(field).toHaveFocus();
    await u.type(field, 'abcde-fghjk');
    await u.click(modal.getByRole('button', { name: 'Verify & Login' }));
    expect(await modal.findByText(authMessages.invalidCode)).toBeInTheDocument();
    await u.click(modal.getByRole('button', { name: 'Verify & Login' }));
    await vi.waitFor(() => expect(useSessionStore.getState().isAuthenticated).toBe(true));
    expect(sent).toEqual([
      { tempToken: 'temp-token', recoveryCode: 'abcde-fghjk' },
      { tempToken: 'temp-token', recoveryCode: 'abcde-fghjk' },
    ]);
  });

  it('keeps the e-mailed code when the answer names no second factor', async () => {
    mockServer({ '/api/auth/login': loginAnswer() });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const { modal } = await passwordStep();
    expect(modal.getByLabelText('Verification code')).toBeInTheDocument();
    expect(modal.getByRole('button', { name: 'Resend Code' })).toBeInTheDocument();
    expect(modal.queryByRole('button', { name: 'Use a recovery code' })).not.toBeInTheDocument();
  });
});
