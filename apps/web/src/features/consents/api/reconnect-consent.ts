import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reconnectConsentPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** Asks the consent's partner for a fresh consent (docs/decisions/041). */
export const reconnectConsent = async (id: string) =>
  api.post(reconnectConsentPath(id), {}, { schema: responseSchema('ConsentChangeResponseSchema') });

export function useReconnectConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reconnectConsent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['consents'] }),
  });
}
