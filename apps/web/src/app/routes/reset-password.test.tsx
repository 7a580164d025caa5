import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component as ResetPasswordPage } from './reset-password';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

describe('Reset password request', () => {
  it('requires an address-like e-mail', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email Address'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('shows the green message, resets the form and goes to /login after two seconds', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(jsonResponse(200, { success: true, message: 'If the account exists...' }));
    const { router } = renderWithProviders(<ResetPasswordPage />, { path: '/reset-password' });
    await userEvent.type(screen.getByLabelText('Email Address'), 'demo@acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect((await screen.findAllByText('Password reset email sent!')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Email Address')).toHaveValue('');
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(String(url)).toBe('/api/users/forgot-password');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'demo@acme.example' });
    expect(router.state.location.pathname).toBe('/reset-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), {
      timeout: 3500,
    });
  });

  it("shows the server's message, or 'Failed to send reset email'", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        jsonResponse(429, { success: false, message: 'Too many requests. Try again in a minute.' }),
      );
    renderWithProviders(<ResetPasswordPage />, { path: '/reset-password' });
    await userEvent.type(screen.getByLabelText('Email Address'), 'demo@acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(
      await screen.findByText('Too many requests. Try again in a minute.'),
    ).toBeInTheDocument();

    fetchSpy.mockResolvedValue(new Response('', { status: 503 }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Failed to send reset email')).toBeInTheDocument();
  });
});

describe('Reset password confirm', () => {
  const path = '/reset-password?token=reset-token-1';

  it('shows the confirm form and its required messages', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<ResetPasswordPage />, { path });
    expect(screen.getByRole('heading', { name: 'Set New Password' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('requires six characters and a matching confirmation', async () => {
    renderWithProviders(<ResetPasswordPage />, { path });
    await userEvent.type(screen.getByLabelText('New Password'), 'abc');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abd');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New Password'), 'defgh');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });

  it("sends the token and new password, then says 'Password reset successfully!' and goes to /login", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(jsonResponse(200, { success: true, message: 'Password updated' }));
    const { router } = renderWithProviders(<ResetPasswordPage />, { path });
    await userEvent.type(screen.getByLabelText('New Password'), 'NewPass@1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'NewPass@1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Password reset successfully!')).toBeInTheDocument();
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(String(url)).toBe('/api/users/reset-password');
    expect(JSON.parse(String(init?.body))).toEqual({
      token: 'reset-token-1',
      newPassword: 'NewPass@1',
    });
  });

  it("shows the server's message for a used link, or 'Failed to reset password'", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        jsonResponse(400, { success: false, message: 'This reset link has expired.' }),
      );
    renderWithProviders(<ResetPasswordPage />, { path });
    await userEvent.type(screen.getByLabelText('New Password'), 'NewPass@1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'NewPass@1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('This reset link has expired.')).toBeInTheDocument();

    fetchSpy.mockResolvedValue(new Response('', { status: 500 }));
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  });
});
