import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  twoFactorPaths,
  type DisableTwoFactorRequest,
  type EnableTwoFactorRequest,
} from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getTwoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['security', 'two-factor'],
    queryFn: () =>
      api.get(twoFactorPaths.status, { schema: responseSchema('TwoFactorStatusResponseSchema') }),
  });

export const useTwoFactorStatus = () => useQuery(getTwoFactorStatusQueryOptions());

export const useStartSetup = () =>
  useMutation({
    mutationFn: () =>
      api.post(twoFactorPaths.setup, undefined, {
        schema: responseSchema('TwoFactorSetupResponseSchema'),
      }),
  });

/** Turning the app on or off changes the status shown. */
function useSettingChange<T, A>(run: (body: A) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries(getTwoFactorStatusQueryOptions()),
  });
}

export const useEnableApp = () =>
  useSettingChange((body: EnableTwoFactorRequest) =>
    api.post(twoFactorPaths.enable, body, {
      schema: responseSchema('EnableTwoFactorResponseSchema'),
    }),
  );

export const useDisableApp = () =>
  useSettingChange((body: DisableTwoFactorRequest) =>
    api.post(twoFactorPaths.disable, body, {
      schema: responseSchema('DisableTwoFactorResponseSchema'),
    }),
  );

/** Turns down the dashboard's invitation to add the app: the status says so from then on. */
export const useDismissInvitation = () =>
  useSettingChange(() =>
    api.post(twoFactorPaths.dismissInvitation, undefined, {
      schema: responseSchema('DismissInvitationResponseSchema'),
    }),
  );
