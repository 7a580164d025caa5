import { Navigate, Outlet } from 'react-router';
import { paths } from '@/config/paths';
import { useSessionStore } from '@/lib/session-store';

/** Routes for signed-in customers only; everyone else goes to /login. */
export function RequireAuth() {
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  return isAuthenticated ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** /login: a signed-in customer goes straight to the dashboard. */
export function RedirectIfAuthenticated() {
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  return isAuthenticated ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}

/** Any unknown path: the dashboard when signed in, otherwise /login. */
export function UnknownPath() {
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  return <Navigate to={isAuthenticated ? paths.dashboard : paths.login} replace />;
}
