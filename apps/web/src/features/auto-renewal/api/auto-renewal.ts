import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  autoRenewalPaths,
  type AutoRenewalResponse,
  type StartAutoRenewalRequest,
} from '@portal/contract';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';

const schema = responseSchema('AutoRenewalResponseSchema');

/** Where the customer's auto-renewal stands: null when it is off. */
export const getAutoRenewal = async () =>
  (await api.get(autoRenewalPaths.renewal, { schema })).autoRenewal;

export const getAutoRenewalQueryOptions = () =>
  queryOptions({ queryKey: ['auto-renewal'], queryFn: getAutoRenewal });

export const useAutoRenewal = () => useQuery(getAutoRenewalQueryOptions());

/**
 * A change to the auto-renewal: its answer is shown at once, then it and every read is made again,
 * for the plan shows on several screens (the plans, the profile, the dashboard's Coming up). The answer changes
 * what the card draws, so that the control that sent it may be gone when it arrives: callers use
 * `mutateAsync`, whose promise settles either way, not `mutate`'s callbacks, which would not run.
 */
function useAutoRenewalChange<A>(send: (input: A) => Promise<AutoRenewalResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) =>
      queryClient.setQueryData(getAutoRenewalQueryOptions().queryKey, answer.autoRenewal),
    // not awaited: what follows the answer (the gateway, a notice) does not wait for the reads
    onSettled: () => void queryClient.invalidateQueries(),
  });
}

/** POST: sets up the mandate for the plan; the answer's `authoriseUrl` is where to go next. */
export const useStartAutoRenewal = () =>
  useAutoRenewalChange((body: StartAutoRenewalRequest) =>
    api.post(autoRenewalPaths.renewal, body, { schema }),
  );

/** DELETE: no further debits; an authorised mandate ends with the plan ('ending'). */
export const useStopAutoRenewal = () =>
  useAutoRenewalChange(() => api.delete(autoRenewalPaths.renewal, { schema }));
