import { EndSessionByLink } from '@/features/security/components/end-session-by-link';

export function Component() {
  return <EndSessionByLink />;
}
