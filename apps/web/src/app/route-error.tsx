import { Link } from 'react-router';
import { paths } from '@/config/paths';

export function RouteError() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="text-slate-600">The page could not be shown. Please try again.</p>
      <Link to={paths.dashboard} className="text-blue-700 underline">
        Go to the dashboard
      </Link>
    </main>
  );
}
