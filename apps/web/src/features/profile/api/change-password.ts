import { useMutation } from '@tanstack/react-query';
import { changePasswordPath, type ChangePasswordRequest } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export type ChangePasswordInput = ChangePasswordRequest & { userId: string };

/** PUT /api/users/:id with the current password, which the server checks (ARCHITECTURE). */
export const changePassword = ({ userId, ...body }: ChangePasswordInput) =>
  api.put(changePasswordPath(userId), body, {
    schema: responseSchema('ChangePasswordResponseSchema'),
  });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
