import {
  CreditCard,
  FileDown,
  Fingerprint,
  LayoutDashboard,
  LockKeyhole,
  Puzzle,
  ReceiptText,
  ShieldCheck,
  ShoppingCart,
  User,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '@/config/paths';

/** The sidebar's items: the spec's six in its order (§2 Layout), then the screens added since. */
export const navItems: { label: string; to: string; icon: LucideIcon }[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: LayoutDashboard },
  { label: 'Profile', to: paths.profile, icon: User },
  { label: 'Plans', to: paths.plans, icon: CreditCard },
  { label: 'Plugins', to: paths.plugins, icon: Puzzle },
  { label: 'Orders', to: paths.orders, icon: ShoppingCart },
  { label: 'Consents', to: paths.consents, icon: ShieldCheck },
  { label: 'Invoices', to: paths.invoices, icon: ReceiptText },
  { label: 'Exports', to: paths.exports, icon: FileDown },
  { label: 'Security', to: paths.security, icon: LockKeyhole },
  { label: 'Privacy', to: paths.privacy, icon: Fingerprint },
];
