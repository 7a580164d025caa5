import { queryOptions, useQuery } from '@tanstack/react-query';
import { securityPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getSessions = () =>
  api.get(securityPaths.sessions, { schema: responseSchema('SessionsResponseSchema') });

export const getSessionsQueryOptions = () =>
  queryOptions({ queryKey: ['security', 'sessions'], queryFn: getSessions });

export const useSessions = () => useQuery(getSessionsQueryOptions());
