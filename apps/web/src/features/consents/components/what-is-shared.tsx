import { ChevronRight } from 'lucide-react';
import { KNOWN_PERMISSIONS, clustersOf } from '@portal/contract';
import { permissionName } from './permission-names';

/**
 * The data clusters a consent shares, in plain words, each opening to its permissions (the Open
 * Banking dashboard guidelines). A permission outside every cluster is listed on its own.
 */
export function WhatIsShared({ permissions }: { permissions: string[] }) {
  const clusters = clustersOf(permissions);
  const others = permissions.filter(
    (code) => !(KNOWN_PERMISSIONS as readonly string[]).includes(code),
  );
  if (clusters.length === 0 && others.length === 0) {
    return <p className="text-sm text-slate-600">Nothing</p>;
  }
  return (
    <ul className="space-y-2" aria-label="What is shared">
      {clusters.map(({ cluster, permissions: codes }) => (
        <li key={cluster.id}>
          <details className="group rounded-md border border-slate-200">
            <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-3 py-2 text-sm">
              <ChevronRight
                className="h-4 w-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90"
                aria-hidden="true"
              />
              <span>
                <span className="block font-medium text-slate-900">{cluster.title}</span>
                <span className="block text-xs text-slate-600">{cluster.description}</span>
              </span>
            </summary>
            <ul className="border-t border-slate-100 px-9 py-2 text-sm text-slate-800">
              {codes.map((code) => (
                <li key={code} className="py-0.5">
                  {permissionName(code)}
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
      {others.map((code) => (
        <li key={code} className="px-3 text-sm text-slate-900">
          {permissionName(code)}
        </li>
      ))}
    </ul>
  );
}
