import { authPaths, type LoginRequest, type SecondFactor } from '@portal/contract';
import { api, errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';

export type LoginResult =
  | { success: true; requires2FA: true; message: string; secondFactor: SecondFactor }
  | { success: false; message: string };

/**
 * The first sign-in step (spec §4, §5 Login response): a tempToken means the code was mailed;
 * a message without a tempToken (even an empty one) is a failure; neither is unexpected.
 */
export async function login(credentials: LoginRequest): Promise<LoginResult> {
  const session = useSessionStore.getState();
  session.setLoading(true);
  try {
    const body = await api.post<unknown>(authPaths.login, credentials);
    const { tempToken, message, secondFactor } = (body ?? {}) as {
      tempToken?: unknown;
      message?: unknown;
      secondFactor?: unknown;
    };
    if (typeof tempToken === 'string' && tempToken) {
      session.startVerification(credentials.email, tempToken, credentials.rememberMe ?? false);
      return {
        success: true,
        requires2FA: true,
        message: typeof message === 'string' ? message : '',
        // the e-mailed code unless the answer names the authenticator app or a passkey
        secondFactor: secondFactor === 'app' || secondFactor === 'passkey' ? secondFactor : 'email',
      };
    }
    if (typeof message === 'string') return { success: false, message: message || 'Login failed' };
    return { success: false, message: 'Unexpected response' };
  } catch (error) {
    return { success: false, message: errorMessage(error, 'Login failed') };
  } finally {
    useSessionStore.getState().setLoading(false);
  }
}
