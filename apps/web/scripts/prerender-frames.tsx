/**
 * The first HTML's frames, rendered at build time from the real components, so that a first
 * visit paints the sign-in screen or the signed-in shell before any JavaScript has run, and
 * React's first render draws the same boxes over them (no layout shift).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppLayout } from '../src/app/layout/app-layout';
import { Component as Login } from '../src/app/routes/login';
import { paths } from '../src/config/paths';
import { DashboardView } from '../src/features/dashboard/components/dashboard-view';

/** Stands for the customer's company name; scripts/route-frame.js puts the stored one in. */
export const COMPANY_PLACEHOLDER = '{company}';

const render = (path: string, screen: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>
    </QueryClientProvider>,
  );

const noCounters = {
  totalConsents: 0,
  activeConsents: 0,
  pendingConsents: 0,
  expiredConsents: 0,
  totalPlans: 0,
  totalOrders: 0,
  completedOrders: 0,
  pendingOrders: 0,
  failedOrders: 0,
};

export const renderFrames = () => ({
  login: render('/login', <Login />),
  // every signed-in screen comes with its route's code; the shell (header, sidebar) and the
  // dashboard while it loads (the screen a sign-in lands on) do not wait for it
  shell: render(
    paths.dashboard,
    <Routes>
      <Route element={<AppLayout />}>
        <Route
          path={paths.dashboard}
          element={
            <div data-frame-screen="dashboard">
              <DashboardView
                sessionCompanyName={COMPANY_PLACEHOLDER}
                counters={noCounters}
                recentOrders={[]}
                recentActivity={[]}
                isLoading
                isError={false}
              />
            </div>
          }
        />
      </Route>
    </Routes>,
  ),
});
