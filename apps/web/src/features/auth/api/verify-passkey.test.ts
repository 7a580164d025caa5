import { startAuthentication } from '@simplewebauthn/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { passkeyMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse } from '@/test/data';
import { verifyPasskey } from './verify-passkey';

vi.mock(import('@simplewebauthn/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  startAuthentication: vi.fn(),
}));

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  vi.mocked(startAuthentication).mockReset();
  useSessionStore.getState().clearSession();
});

describe('verifyPasskey', () => {
  it('returns a failure without a call or a prompt when no sign-in is pending', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await expect(verifyPasskey()).resolves.toEqual({
      success: false,
      message: 'Verification failed',
    });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(startAuthentication).not.toHaveBeenCalled();
  });

  it('opens no prompt when the server refuses the challenge, and says why', async () => {
    useSessionStore.getState().startVerification('demo@acme.example', 'temp-token', false);
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(400, { success: false, message: passkeyMessages.challengeExpired }),
    );
    await expect(verifyPasskey()).resolves.toEqual({
      success: false,
      message: passkeyMessages.challengeExpired,
    });
    expect(startAuthentication).not.toHaveBeenCalled();
    expect(useSessionStore.getState().isLoading).toBe(false);
  });
});
