import { queryOptions, useQuery } from '@tanstack/react-query';
import { securityPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getLastSignIn = () =>
  api.get(securityPaths.lastSignIn, { schema: responseSchema('LastSignInResponseSchema') });

export const getLastSignInQueryOptions = () =>
  queryOptions({ queryKey: ['security', 'last-sign-in'], queryFn: getLastSignIn });

export const useLastSignIn = () => useQuery(getLastSignInQueryOptions());
