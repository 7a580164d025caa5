import { authPaths, type ForgotPasswordRequest } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const forgotPassword = (input: ForgotPasswordRequest) =>
  api.post(authPaths.forgotPassword, input, {
    schema: responseSchema('ForgotPasswordResponseSchema'),
  });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
