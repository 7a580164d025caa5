import { ConsentsScreen } from '@/features/consents/components/consents-screen';

export function Component() {
  return <ConsentsScreen />;
}
