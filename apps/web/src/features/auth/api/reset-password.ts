import { authPaths, type ResetPasswordRequest } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const resetPassword = (input: ResetPasswordRequest) =>
  api.post(authPaths.resetPassword, input, {
    schema: responseSchema('ResetPasswordResponseSchema'),
  });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
