import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userConsentPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const deleteConsent = (id: string) =>
  api.delete(userConsentPath(id), { schema: responseSchema('DeleteConsentResponseSchema') });

export function useDeleteConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConsent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['consents'] }),
  });
}
