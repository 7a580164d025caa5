import {
  ResetPasswordResponseSchema,
  authPaths,
  type ResetPasswordRequest,
} from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/http';

export const resetPassword = (input: ResetPasswordRequest) =>
  api.post(authPaths.resetPassword, input, { schema: ResetPasswordResponseSchema });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
