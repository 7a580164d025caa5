import { SecurityScreen } from '@/features/security/components/security-screen';

export function Component() {
  return <SecurityScreen />;
}
