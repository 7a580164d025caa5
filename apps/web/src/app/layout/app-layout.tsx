import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { MOBILE_SIDEBAR_BREAKPOINT_PX } from '@portal/contract';
import { Sheet } from '@/ui/sheet';
import { Header, SIDEBAR_ID } from './header';
import { Sidebar } from './sidebar';

/** Sidebar and header around every signed-in screen; under 1024 px the sidebar is a panel. */
export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    // the panel is meaningless once the permanent sidebar is visible
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(`(min-width: ${MOBILE_SIDEBAR_BREAKPOINT_PX}px)`);
    const onChange = () => query.matches && setMenuOpen(false);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  return (
    <div className="min-h-screen bg-slate-50">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-blue-800 focus:shadow-lg"
      >
        Skip to main content
      </a>
      <aside className="fixed inset-y-0 left-0 hidden w-64 lg:block" aria-label="Sidebar">
        <Sidebar />
      </aside>
      <Sheet open={menuOpen} onOpenChange={setMenuOpen} title="Menu" id={SIDEBAR_ID}>
        <Sidebar onNavigate={() => setMenuOpen(false)} />
      </Sheet>
      <div className="lg:pl-64">
        <Header menuOpen={menuOpen} onMenuClick={() => setMenuOpen(true)} />
        <main
          id="main-content"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl px-4 py-6 focus:outline-none sm:px-6 lg:px-8"
        >
          <Outlet />
        </main>
      </div>
    </div>
  );
}
