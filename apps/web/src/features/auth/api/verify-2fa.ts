import { authPaths, twoFactorPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api, errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';

export type VerifyResult = { success: true } | { success: false; message: string };

/**
 * The second sign-in step, with whatever proves the customer (the e-mailed or app's code, or a
 * recovery code); without a pending verification nothing is sent (spec §5).
 */
export async function completeSignIn(
  path: string,
  proof: { verificationCode: string } | { recoveryCode: string },
): Promise<VerifyResult> {
  const session = useSessionStore.getState();
  const { tempToken } = session;
  if (!tempToken) return { success: false, message: 'Verification failed' };
  session.setLoading(true);
  try {
    const { token, user } = await api.post(
      path,
      { tempToken, ...proof },
      { schema: responseSchema('Verify2faResponseSchema') },
    );
    useSessionStore.getState().completeVerification(token, user);
    return { success: true };
  } catch (error) {
    return { success: false, message: errorMessage(error, 'Verification failed') };
  } finally {
    useSessionStore.getState().setLoading(false);
  }
}

export const verify2fa = (verificationCode: string) =>
  completeSignIn(authPaths.verify2fa, { verificationCode });

/** Sign-in step two with a recovery code; as the e-mailed code's step, it needs the tempToken. */
export const verifyRecoveryCode = (recoveryCode: string) =>
  completeSignIn(twoFactorPaths.verifyRecoveryCode, { recoveryCode });
