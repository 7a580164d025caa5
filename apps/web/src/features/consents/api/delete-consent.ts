import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeleteConsentResponseSchema, userConsentPath } from '@portal/contract';
import { api } from '@/lib/http';

export const deleteConsent = (id: string) =>
  api.delete(userConsentPath(id), { schema: DeleteConsentResponseSchema });

export function useDeleteConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConsent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['consents'] }),
  });
}
