import { InvoicesScreen } from '@/features/invoices/components/invoices-screen';

export function Component() {
  return <InvoicesScreen />;
}
