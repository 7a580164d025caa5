import type { ReactNode } from 'react';

/**
 * A line's placeholder while loading, one line high: it sits at the line's top, where on the
 * baseline it would push the line taller than the text that replaces it.
 */
export function Placeholder({ width }: { width: string }) {
  return (
    <span className="inline-flex h-[1lh] items-center align-top" aria-hidden="true">
      <span className={`block h-[0.8lh] animate-pulse rounded bg-slate-200 ${width}`} />
    </span>
  );
}

/** A value that keeps its line height while loading, so nothing jumps when it arrives. */
export function Value({
  loading,
  children,
  width = 'w-16',
}: {
  loading: boolean;
  children: ReactNode;
  width?: string;
}) {
  return loading ? <Placeholder width={width} /> : <>{children}</>;
}
