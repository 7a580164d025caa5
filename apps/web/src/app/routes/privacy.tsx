import { PrivacyScreen } from '@/features/privacy/components/privacy-screen';

export function Component() {
  return <PrivacyScreen />;
}
