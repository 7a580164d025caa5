import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  preferencesPaths,
  privacyPaths,
  type CloseAccountRequest,
  type EmailChangeCodeRequest,
  type EmailChangeRequest,
  type CorrectionRequest,
  type GrievanceRequest,
  type NomineeRequest,
  type NotificationPreferences,
} from '@portal/contract';
import { getProfile, getProfileQueryOptions } from '@/features/profile/api/get-profile';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';
import { useSessionStore } from '@/lib/session-store';

const messageSchema = responseSchema('PrivacyMessageResponseSchema');

export const getPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['preferences', 'notifications'],
    queryFn: async () =>
      (
        await api.get(preferencesPaths.notifications, {
          schema: responseSchema('NotificationPreferencesResponseSchema'),
        })
      ).data,
  });

export const usePreferences = () => useQuery(getPreferencesQueryOptions());

/** Saves both switches; the screen shows the saved answer, not what was asked. */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      api.put(preferencesPaths.notifications, body, {
        schema: responseSchema('NotificationPreferencesResponseSchema'),
      }),
    onSuccess: (answer) =>
      queryClient.setQueryData(getPreferencesQueryOptions().queryKey, answer.data),
  });
}

export const useSendEmailChangeCode = () =>
  useMutation({
    mutationFn: (body: EmailChangeCodeRequest) =>
      api.post(privacyPaths.emailChangeCode, body, { schema: messageSchema }),
  });

/** Confirms the new address, then reads the profile again so that every screen shows it. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailChangeRequest) =>
      api.post(privacyPaths.emailChange, body, { schema: messageSchema }),
    onSuccess: async () => {
      const user = await getProfile();
      useSessionStore.getState().setUser(user);
      queryClient.setQueryData(getProfileQueryOptions().queryKey, user);
    },
  });
}

export const useSendCloseAccountCode = () =>
  useMutation({
    mutationFn: () => api.post(privacyPaths.closeAccountCode, undefined, { schema: messageSchema }),
  });

export const useCloseAccount = () =>
  useMutation({
    mutationFn: (body: CloseAccountRequest) =>
      api.post(privacyPaths.closeAccount, body, { schema: messageSchema }),
  });

/** While an export is being prepared, the page looks again this often, to show it ready. */
const PREPARING_POLL_MS = 5_000;

export const getDataExportQueryOptions = () =>
  queryOptions({
    queryKey: ['privacy', 'data-export'],
    queryFn: async () =>
      (
        await api.get(privacyPaths.dataExport, {
          schema: responseSchema('DataExportResponseSchema'),
        })
      ).data,
  });

export const useDataExport = () =>
  useQuery({
    ...getDataExportQueryOptions(),
    refetchInterval: (query) =>
      query.state.data?.status === 'preparing' ? PREPARING_POLL_MS : false,
  });

/** Asks for a new export; the page shows the request the server answers with. */
export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post(privacyPaths.dataExport, undefined, {
        schema: responseSchema('DataExportRequestedResponseSchema'),
      }),
    onSuccess: (answer) =>
      queryClient.setQueryData(getDataExportQueryOptions().queryKey, answer.data),
  });
}

const nomineeSchema = responseSchema('NomineeResponseSchema');

export const getNomineeQueryOptions = () =>
  queryOptions({
    queryKey: ['privacy', 'nominee'],
    queryFn: async () => (await api.get(privacyPaths.nominee, { schema: nomineeSchema })).data,
  });

export const useNominee = () => useQuery(getNomineeQueryOptions());

/** Names or changes the nominee; the screen shows the saved answer. */
export function useSaveNominee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NomineeRequest) =>
      api.put(privacyPaths.nominee, body, { schema: nomineeSchema }),
    onSuccess: (answer) => queryClient.setQueryData(getNomineeQueryOptions().queryKey, answer.data),
  });
}

export function useRemoveNominee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(privacyPaths.nominee, { schema: messageSchema }),
    onSuccess: () => queryClient.setQueryData(getNomineeQueryOptions().queryKey, { nominee: null }),
  });
}

export const getGrievancesQueryOptions = () =>
  queryOptions({
    queryKey: ['privacy', 'grievances'],
    queryFn: async () =>
      (
        await api.get(privacyPaths.grievances, {
          schema: responseSchema('GrievancesResponseSchema'),
        })
      ).data,
  });

export const useGrievances = () => useQuery(getGrievancesQueryOptions());

/** Records a grievance; the list shows it at once, newest first. */
export function useSubmitGrievance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GrievanceRequest) =>
      api.post(privacyPaths.grievances, body, {
        schema: responseSchema('GrievanceRecordedResponseSchema'),
      }),
    onSuccess: () => queryClient.invalidateQueries(getGrievancesQueryOptions()),
  });
}

export const getCorrectionsQueryOptions = () =>
  queryOptions({
    queryKey: ['privacy', 'corrections'],
    queryFn: async () =>
      (
        await api.get(privacyPaths.corrections, {
          schema: responseSchema('CorrectionsResponseSchema'),
        })
      ).data,
  });

export const useCorrections = () => useQuery(getCorrectionsQueryOptions());

/** Asks for a correction; the list shows it at once, Waiting. */
export function useRequestCorrection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CorrectionRequest) =>
      api.post(privacyPaths.corrections, body, {
        schema: responseSchema('CorrectionRecordedResponseSchema'),
      }),
    onSuccess: () => queryClient.invalidateQueries(getCorrectionsQueryOptions()),
  });
}

export const getNoticeQueryOptions = () =>
  queryOptions({
    queryKey: ['privacy', 'notice'],
    queryFn: async () =>
      (
        await api.get(privacyPaths.notice, {
          schema: responseSchema('PrivacyNoticeResponseSchema'),
        })
      ).data,
  });

export const useNoticeStatus = () => useQuery(getNoticeQueryOptions());

/** Records that the customer read this version; the dashboard's card goes. */
export function useMarkNoticeRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: string) =>
      api.post(
        privacyPaths.notice,
        { version },
        { schema: responseSchema('PrivacyNoticeResponseSchema') },
      ),
    onSuccess: (answer) => queryClient.setQueryData(getNoticeQueryOptions().queryKey, answer.data),
  });
}

/** Withdraws every optional consent at once; the e-mail switches show it. */
export function useWithdrawOptional() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post(
        privacyPaths.withdrawOptional,
        {},
        { schema: responseSchema('NotificationPreferencesResponseSchema') },
      ),
    onSuccess: (answer) =>
      queryClient.setQueryData(getPreferencesQueryOptions().queryKey, answer.data),
  });
}
