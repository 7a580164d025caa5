import { ExportsScreen } from '@/features/exports/components/exports-screen';

export function Component() {
  return <ExportsScreen />;
}
