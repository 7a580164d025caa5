import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passkeyPaths, type RenamePasskeyRequest } from '@portal/contract';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';
import { getPasskeysQueryOptions, passkeyPath } from './passkeys';

export const renamePasskey = (id: string, body: RenamePasskeyRequest) =>
  api.patch(passkeyPath(passkeyPaths.rename, id), body, {
    schema: responseSchema('RenamePasskeyResponseSchema'),
  });

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: RenamePasskeyRequest & { id: string }) => renamePasskey(id, body),
    onSettled: () => queryClient.invalidateQueries(getPasskeysQueryOptions()),
  });
}
