import { useMutation, useQueryClient } from '@tanstack/react-query';
import { securityPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { getSessionsQueryOptions } from './get-sessions';

export const endOtherSessions = () =>
  api.post(securityPaths.endOtherSessions, undefined, {
    schema: responseSchema('EndOtherSessionsResponseSchema'),
  });

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries(getSessionsQueryOptions()),
  });
}
