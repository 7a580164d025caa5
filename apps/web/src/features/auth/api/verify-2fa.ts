import { authPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api, errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';

export type VerifyResult = { success: true } | { success: false; message: string };

/** The second sign-in step; without a pending verification nothing is sent (spec §5). */
export async function verify2fa(verificationCode: string): Promise<VerifyResult> {
  const session = useSessionStore.getState();
  const { tempToken } = session;
  if (!tempToken) return { success: false, message: 'Verification failed' };
  session.setLoading(true);
  try {
    const { token, user } = await api.post(
      authPaths.verify2fa,
      { tempToken, verificationCode },
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
