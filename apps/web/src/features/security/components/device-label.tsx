import { Monitor, Smartphone, Tablet, type LucideIcon } from 'lucide-react';
import type { DeviceKind } from '@portal/contract';

const icons: Record<DeviceKind, LucideIcon> = {
  desktop: Monitor,
  phone: Smartphone,
  tablet: Tablet,
  unknown: Monitor,
};

/** "Chrome on Windows" with an icon of the kind of device. */
export function DeviceLabel({ browser, device }: { browser: string; device: DeviceKind }) {
  const Icon = icons[device];
  return (
    <span className="inline-flex items-center gap-2">
      <Icon className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
      <span>{browser}</span>
    </span>
  );
}

/** The address a session or sign-in came from, or a word for the sessions recorded without. */
export const addressOf = (ip: string) => ip || 'Not recorded';
