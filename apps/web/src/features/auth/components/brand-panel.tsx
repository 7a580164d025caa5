import { Landmark, Lock } from 'lucide-react';
import { cn } from '@/lib/cn';

/** The login screen's left panel: product name, tagline and the secured-connection note. */
export function BrandPanel({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        'flex flex-col justify-between gap-8 bg-blue-900 px-8 py-10 text-white lg:px-14 lg:py-16',
        className,
      )}
    >
      <div className="flex items-center gap-3">
        <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-white/15">
          <Landmark className="h-6 w-6" aria-hidden="true" />
        </span>
        <p className="text-xl font-semibold tracking-tight">Connected Banking Portal</p>
      </div>
      <div className="space-y-4">
        <p className="max-w-md text-3xl font-bold leading-tight lg:text-4xl">
          Your accounting and your bank, connected securely.
        </p>
        <p className="max-w-md text-base text-blue-100">
          Manage your company profile, subscription plans, plugins and banking consents in one
          place.
        </p>
      </div>
      <p className="flex items-center gap-2 text-sm text-blue-100">
        <Lock className="h-4 w-4 shrink-0" aria-hidden="true" />
        Your connection is secured with 256-bit SSL encryption.
      </p>
    </div>
  );
}
