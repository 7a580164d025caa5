import { AppLayout } from '@/app/layout/app-layout';

export function Component() {
  return <AppLayout />;
}
