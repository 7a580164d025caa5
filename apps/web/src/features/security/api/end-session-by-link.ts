import { useMutation } from '@tanstack/react-query';
import { securityPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const endSessionByLink = (token: string) =>
  api.post(
    securityPaths.endSessionByLink,
    { token },
    { schema: responseSchema('EndSessionByLinkResponseSchema') },
  );

export const useEndSessionByLink = () => useMutation({ mutationFn: endSessionByLink });
