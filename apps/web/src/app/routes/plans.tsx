import { PlansScreen } from '@/features/plans/components/plans-screen';

export function Component() {
  return <PlansScreen />;
}
