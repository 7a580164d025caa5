import { Skeleton } from '@/ui/spinner';
import type { ConsentCounts } from './consent-rules';

const TILES: { key: keyof ConsentCounts; className: string }[] = [
  { key: 'Total', className: 'text-slate-900' },
  { key: 'Pending', className: 'text-amber-800' },
  { key: 'Approved', className: 'text-green-800' },
  { key: 'Rejected', className: 'text-red-800' },
  { key: 'Expired', className: 'text-slate-700' },
];

/** A tile per state with its count; placeholders until the counters arrive. */
export function ConsentCountTiles({ counts }: { counts: ConsentCounts | null }) {
  return (
    <dl
      className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5"
      aria-label="Consent counts"
    >
      {TILES.map(({ key, className }) => (
        <div key={key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm font-medium text-slate-600">{key}</dt>
          <dd className={`mt-1 text-2xl font-bold ${className}`}>
            {counts ? counts[key] : <Skeleton className="h-8 w-10" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}
