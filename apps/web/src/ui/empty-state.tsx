import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon?: ReactNode;
  title: string;
  description?: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 px-6 py-12 text-center">
      {icon && (
        <div className="text-slate-400" aria-hidden="true">
          {icon}
        </div>
      )}
      <p className="text-base font-medium text-slate-800">{title}</p>
      {description && <p className="text-sm text-slate-600">{description}</p>}
      {action}
    </div>
  );
}
