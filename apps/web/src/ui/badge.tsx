import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

const tones = {
  green: 'bg-green-100 text-green-800',
  yellow: 'bg-amber-100 text-amber-900',
  red: 'bg-red-100 text-red-800',
  blue: 'bg-blue-100 text-blue-800',
  purple: 'bg-purple-100 text-purple-800',
  grey: 'bg-slate-100 text-slate-700',
} as const;

export type BadgeTone = keyof typeof tones;

export function Badge({
  tone = 'grey',
  children,
  className,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
