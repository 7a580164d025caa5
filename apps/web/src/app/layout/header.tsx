import { Menu, Search } from 'lucide-react';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useSessionStore } from '@/lib/session-store';

export const SIDEBAR_ID = 'mobile-sidebar';

/** Search box (not wired to anything yet), bell, and who is signed in (spec §2 Layout). */
export function Header({ menuOpen, onMenuClick }: { menuOpen: boolean; onMenuClick(): void }) {
  const user = useSessionStore((s) => s.user);
  const companyName = user?.company_name ?? '';
  const initial = (companyName.trim()[0] ?? user?.email?.[0] ?? 'U').toUpperCase();
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
      <button
        type="button"
        onClick={onMenuClick}
        className="rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? SIDEBAR_ID : undefined}
      >
        <Menu className="h-5 w-5" aria-hidden="true" />
      </button>
      <form role="search" className="relative max-w-md flex-1" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="header-search" className="sr-only">
          Search
        </label>
        <Search
          className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <input
          id="header-search"
          type="search"
          placeholder="Search..."
          className="h-10 w-full rounded-md border border-slate-300 bg-slate-50 pl-9 pr-3 text-sm text-slate-900 placeholder:text-slate-500 focus:border-blue-600 focus:bg-white focus:outline-none focus:ring-2 focus:ring-blue-600/30"
        />
      </form>
      <div className="ml-auto flex items-center gap-2 sm:gap-4">
        <NotificationBell />
        <div className="flex items-center gap-3">
          <div className="hidden text-right sm:block">
            <p className="max-w-48 truncate text-sm font-medium text-slate-900">{companyName}</p>
            <p className="text-xs text-slate-600">{user?.customer_type}</p>
          </div>
          <span
            className="flex h-9 w-9 items-center justify-center rounded-full bg-blue-700 text-sm font-semibold text-white"
            aria-hidden="true"
          >
            {initial}
          </span>
        </div>
      </div>
    </header>
  );
}
