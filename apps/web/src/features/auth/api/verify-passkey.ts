import {
  startAuthentication,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { passkeyPaths } from '@portal/contract';
import { ceremonyErrorMessage } from '@/features/passkeys/utils/ceremony-error';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';
import { useSessionStore } from '@/lib/session-store';
import type { VerifyResult } from './verify-2fa';

/** The pending sign-in's challenge, answered by the device's passkey prompt. */
async function assertion(tempToken: string): Promise<AuthenticationResponseJSON> {
  const options = await api.post(
    passkeyPaths.signInOptions,
    { tempToken },
    { schema: responseSchema('PasskeyOptionsResponseSchema') },
  );
  // the server builds the options for this library; the contract checks only the challenge
  return startAuthentication({
    optionsJSON: options.data as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
}

/**
 * Sign-in step two with a passkey: the challenge, the device's prompt, then the server's check,
 * which answers as verify-2fa does. Without a pending sign-in nothing is sent.
 */
export async function verifyPasskey(): Promise<VerifyResult> {
  const { tempToken } = useSessionStore.getState();
  if (!tempToken) return { success: false, message: 'Verification failed' };
  useSessionStore.getState().setLoading(true);
  try {
    const credential = await assertion(tempToken);
    const { token, user } = await api.post(
      passkeyPaths.verify,
      { tempToken, credential },
      { schema: responseSchema('Verify2faResponseSchema') },
    );
    useSessionStore.getState().completeVerification(token, user);
    return { success: true };
  } catch (error) {
    return { success: false, message: ceremonyErrorMessage(error, 'sign-in') };
  } finally {
    useSessionStore.getState().setLoading(false);
  }
}
