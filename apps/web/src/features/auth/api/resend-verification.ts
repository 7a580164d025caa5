import { authPaths } from '@portal/contract';
import { ApiError, api, errorMessage } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';
import { useSessionStore } from '@/lib/session-store';

/** `waitSeconds`: how long the server asks to wait before the next resend, when it refused one. */
export type ResendResult = { success: boolean; message: string; waitSeconds?: number };

/** A new code for the pending verification; needs its tempToken and e-mail (spec §5). */
export async function resendVerification(): Promise<ResendResult> {
  const { tempToken, pendingEmail } = useSessionStore.getState();
  if (!tempToken || !pendingEmail) {
    return { success: false, message: 'Email or temp token is missing' };
  }
  try {
    await api.post(
      authPaths.resendVerification,
      { tempToken },
      { schema: responseSchema('ResendVerificationResponseSchema') },
    );
    return { success: true, message: 'Verification code resent!' };
  } catch (error) {
    return {
      success: false,
      message: errorMessage(error, 'Failed to resend code'),
      waitSeconds: error instanceof ApiError ? error.retryAfterSeconds : undefined,
    };
  }
}
