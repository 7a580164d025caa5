import { authPaths, type CodeMailStatus } from '@portal/contract';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';
import { useSessionStore } from '@/lib/session-store';

/**
 * Where the mail of the pending sign-in's newest code is: sent, queued or failing. Throws what
 * the call threw (an ApiError for a refusal); null without a pending sign-in, with no call.
 */
export async function codeMailStatus(): Promise<CodeMailStatus | null> {
  const { tempToken } = useSessionStore.getState();
  if (!tempToken) return null;
  const answer = await api.post(
    authPaths.codeMailStatus,
    { tempToken },
    { schema: responseSchema('CodeMailStatusResponseSchema') },
  );
  return answer.data.status;
}
