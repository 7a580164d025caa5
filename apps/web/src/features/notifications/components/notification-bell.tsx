import { Bell } from 'lucide-react';

/** The header's bell; the activity feature gives it its dot and its list. */
export function NotificationBell() {
  return (
    <button
      type="button"
      className="relative rounded-full p-2 text-slate-600 hover:bg-slate-100"
      aria-label="Notifications"
    >
      <Bell className="h-5 w-5" aria-hidden="true" />
    </button>
  );
}
