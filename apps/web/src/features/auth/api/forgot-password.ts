import {
  ForgotPasswordResponseSchema,
  authPaths,
  type ForgotPasswordRequest,
} from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/http';

export const forgotPassword = (input: ForgotPasswordRequest) =>
  api.post(authPaths.forgotPassword, input, { schema: ForgotPasswordResponseSchema });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
