import { useMutation, useQueryClient } from '@tanstack/react-query';
import { consentPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** Only the consent id: the server asks the bank with the tokens it holds. */
export const refreshConsentStatus = async (consentId: string) =>
  (
    await api.post(
      consentPaths.getStatus,
      { consentId },
      { schema: responseSchema('ConsentStatusResponseSchema') },
    )
  ).data;

export function useRefreshConsentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshConsentStatus,
    // spec §4: refreshing a status re-queries the provider and then reloads the list
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['consents'] }),
  });
}
