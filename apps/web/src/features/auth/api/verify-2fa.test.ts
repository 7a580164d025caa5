import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session-store';
import { resendVerification } from './resend-verification';
import { verify2fa } from './verify-2fa';

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('verify2fa', () => {
  it('returns a failure without a call when no verification is pending', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await expect(verify2fa('123456')).resolves.toEqual({
      success: false,
      message: 'Verification failed',
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('resendVerification', () => {
  it('needs both the tempToken and the e-mail, and makes no call without them', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await expect(resendVerification()).resolves.toEqual({
      success: false,
      message: 'Email or temp token is missing',
    });
    useSessionStore.setState({ tempToken: 'temp-1', pendingEmail: null });
    await expect(resendVerification()).resolves.toMatchObject({
      message: 'Email or temp token is missing',
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
