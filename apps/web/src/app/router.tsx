import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { RedirectIfAuthenticated, RequireAuth, UnknownPath } from './guards';
import { RouteEffects, type RouteHandle } from './route-effects';
import { RouteError } from './route-error';

const titled = (title: RouteHandle['title']): { handle: RouteHandle } => ({ handle: { title } });

/** The spec's route table (§2); each page loads on demand. */
export const routes: RouteObject[] = [
  {
    element: <RouteEffects />,
    errorElement: <RouteError />,
    children: [
      {
        element: <RedirectIfAuthenticated />,
        children: [{ path: paths.login, ...titled('Login'), lazy: () => import('./routes/login') }],
      },
      {
        // the query cache comes with the screens that use it, not with the sign-in screen
        lazy: () => import('./routes/with-queries'),
        children: [
          {
            path: paths.resetPassword,
            ...titled((search) => (search.has('token') ? 'Set New Password' : 'Reset Password')),
            lazy: () => import('./routes/reset-password'),
          },
          {
            path: paths.endSession,
            ...titled('End a Session'),
            lazy: () => import('./routes/end-session'),
          },
          {
            element: <RequireAuth />,
            children: [
              {
                path: paths.home,
                lazy: () => import('./routes/app-layout'),
                children: [
                  { index: true, element: <Navigate to={paths.dashboard} replace /> },
                  {
                    path: paths.dashboard,
                    ...titled('Dashboard'),
                    lazy: () => import('./routes/dashboard'),
                  },
                  {
                    path: paths.profile,
                    ...titled('Profile'),
                    lazy: () => import('./routes/profile'),
                  },
                  { path: paths.plans, ...titled('Plans'), lazy: () => import('./routes/plans') },
                  {
                    path: paths.plugins,
                    ...titled('Plugins'),
                    lazy: () => import('./routes/plugins'),
                  },
                  {
                    path: paths.orders,
                    ...titled('Orders'),
                    lazy: () => import('./routes/orders'),
                  },
                  {
                    path: paths.consents,
                    ...titled('Consents'),
                    lazy: () => import('./routes/consents'),
                  },
                  {
                    path: paths.activity,
                    ...titled('Activity'),
                    lazy: () => import('./routes/activity'),
                  },
                  {
                    path: paths.security,
                    ...titled('Security'),
                    lazy: () => import('./routes/security'),
                  },
                  {
                    path: paths.invoices,
                    ...titled('Invoices'),
                    lazy: () => import('./routes/invoices'),
                  },
                  {
                    path: paths.exports,
                    ...titled('Exports'),
                    lazy: () => import('./routes/exports'),
                  },
                  {
                    path: paths.privacy,
                    ...titled('Privacy'),
                    lazy: () => import('./routes/privacy'),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
export type AppRouter = ReturnType<typeof createRouter>;

/**
 * Settles once the first location's route modules are in, so that React's first render is the
 * screen itself, drawn over the first HTML's frame, rather than a blank page while they load.
 */
export const routerReady = (router: AppRouter) =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
