import { authPaths } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { paths } from '@/config/paths';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';

export const logout = () =>
  api.post(authPaths.logout, undefined, { schema: responseSchema('LogoutResponseSchema') });

/**
 * Logout calls the server first, then clears the client session whatever the server said
 * (spec §4); the profile screen passes its own notice, 'Logged out successfully!'.
 */
export function useLogout({ successMessage = 'Logged out successfully' } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const finish = () => {
    useSessionStore.getState().clearSession();
    navigate(paths.login, { replace: true });
    // nothing the server owns may outlive the session
    queryClient.clear();
  };
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      finish();
      toast.success(successMessage);
    },
    onError: () => {
      finish();
      toast.error('Failed to logout');
    },
  });
}
