import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import {
  passkeyPaths,
  type PasskeyOptionsRequest,
  type RemovePasskeyRequest,
} from '@portal/contract';
import { getTwoFactorStatusQueryOptions } from '@/features/two-factor/api/two-factor';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';

/** A passkey's own path: `:id` of the contract's path filled in. */
export const passkeyPath = (template: string, id: string) =>
  template.replace(':id', encodeURIComponent(id));

export const getPasskeysQueryOptions = () =>
  queryOptions({
    queryKey: ['security', 'passkeys'],
    queryFn: () =>
      api.get(passkeyPaths.list, { schema: responseSchema('PasskeyListResponseSchema') }),
  });

export const usePasskeys = () => useQuery(getPasskeysQueryOptions());

/** The options for the browser's prompt that creates a passkey; the password unlocks them. */
export const useRegistrationOptions = () =>
  useMutation({
    mutationFn: (body: PasskeyOptionsRequest) =>
      api.post(passkeyPaths.registrationOptions, body, {
        schema: responseSchema('PasskeyOptionsResponseSchema'),
      }),
  });

/**
 * Adding or removing a passkey can change what sign-in asks for after the password, which the
 * authenticator app's section and the dashboard's invitation show.
 */
function useSecondStepChange<T, A>(run: (body: A) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries(getPasskeysQueryOptions()),
        queryClient.invalidateQueries(getTwoFactorStatusQueryOptions()),
      ]),
  });
}

export const useAddPasskey = () =>
  useSecondStepChange((body: { name: string; credential: RegistrationResponseJSON }) =>
    api.post(passkeyPaths.add, body, { schema: responseSchema('AddPasskeyResponseSchema') }),
  );

export const useRemovePasskey = () =>
  useSecondStepChange(({ id, ...body }: RemovePasskeyRequest & { id: string }) =>
    api.post(passkeyPath(passkeyPaths.remove, id), body, {
      schema: responseSchema('RemovePasskeyResponseSchema'),
    }),
  );
