import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pauseConsentPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export type PauseAction = 'pause' | 'resume';

/** Pauses or resumes a consent at the bank (docs/decisions/077). */
export const changeConsentPause = async ({ id, action }: { id: string; action: PauseAction }) =>
  api.post(
    pauseConsentPath(id, action),
    {},
    { schema: responseSchema('ConsentChangeResponseSchema') },
  );

export function useConsentPause() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeConsentPause,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['consents'] }),
  });
}
