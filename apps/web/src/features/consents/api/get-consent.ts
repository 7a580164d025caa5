import { queryOptions, useQuery } from '@tanstack/react-query';
import { userConsentPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** One of the customer's current consents, by its record id (a Reconnect link names it). */
export const getConsent = async (id: string) =>
  (await api.get(userConsentPath(id), { schema: responseSchema('ConsentDetailResponseSchema') }))
    .data;

export const getConsentQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['consents', 'one', id], queryFn: () => getConsent(id), retry: false });

export const useConsent = (id: string | null) =>
  useQuery({ ...getConsentQueryOptions(id ?? ''), enabled: id !== null });
