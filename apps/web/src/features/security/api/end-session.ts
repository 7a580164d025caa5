import { useMutation, useQueryClient } from '@tanstack/react-query';
import { securitySessionPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { getSessionsQueryOptions } from './get-sessions';

export const endSession = (id: string) =>
  api.delete(securitySessionPath(id), { schema: responseSchema('EndSessionResponseSchema') });

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries(getSessionsQueryOptions()),
  });
}
