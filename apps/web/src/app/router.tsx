import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { RedirectIfAuthenticated, RequireAuth, UnknownPath } from './guards';
import { RouteError } from './route-error';

/** The spec's route table (§2); each page loads on demand. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <RedirectIfAuthenticated />,
        children: [{ path: paths.login, lazy: () => import('./routes/login') }],
      },
      { path: paths.resetPassword, lazy: () => import('./routes/reset-password') },
      {
        element: <RequireAuth />,
        children: [
          {
            path: paths.home,
            lazy: () => import('./routes/app-layout'),
            children: [
              { index: true, element: <Navigate to={paths.dashboard} replace /> },
              { path: paths.dashboard, lazy: () => import('./routes/dashboard') },
              { path: paths.profile, lazy: () => import('./routes/profile') },
              { path: paths.plans, lazy: () => import('./routes/plans') },
              { path: paths.plugins, lazy: () => import('./routes/plugins') },
              { path: paths.orders, lazy: () => import('./routes/orders') },
              { path: paths.consents, lazy: () => import('./routes/consents') },
              { path: paths.activity, lazy: () => import('./routes/activity') },
            ],
          },
        ],
      },
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
