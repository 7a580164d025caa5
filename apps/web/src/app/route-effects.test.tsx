import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { Toaster } from '@/ui/toaster';
import { toast } from '@/lib/toast';
import { routeTitle } from './route-effects';
import { routes } from './router';

const titleOf = (url: string) => {
  const { pathname, search } = new URL(url, 'http://localhost');
  const matches = (matchRoutes(routes, pathname) ?? []).map((m) => ({ handle: m.route.handle }));
  return routeTitle(matches, new URLSearchParams(search));
};

/** The first screen's code is imported on demand; a cold import on a busy machine takes a while. */
const FIRST_SCREEN = { timeout: 5_000 };

function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

describe('route titles', () => {
  it('names the screen of every route: "{Screen} · Customer Portal"', () => {
    expect(
      [
        paths.login,
        paths.resetPassword,
        `${paths.resetPassword}?token=abc`,
        paths.dashboard,
        paths.profile,
        paths.plans,
        paths.plugins,
        paths.ordersForPlan('p1'),
        paths.consents,
        paths.activity,
      ].map(titleOf),
    ).toEqual([
      'Login · Customer Portal',
      'Reset Password · Customer Portal',
      'Set New Password · Customer Portal',
      'Dashboard · Customer Portal',
      'Profile · Customer Portal',
      'Plans · Customer Portal',
      'Plugins · Customer Portal',
      'Orders · Customer Portal',
      'Consents · Customer Portal',
      'Activity · Customer Portal',
    ]);
  });

  it('sets the document title and announces a route change politely', async () => {
    const router = renderApp(paths.login);
    await screen.findByRole('heading', { name: 'Welcome Back' }, FIRST_SCREEN);
    await waitFor(() => expect(document.title).toBe('Login · Customer Portal'));
    const announcer = screen.getByTestId('route-announcer');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    // the first screen is read out with the page; nothing to announce yet
    expect(announcer).toBeEmptyDOMElement();

    await act(() => router.navigate(paths.resetPassword));
    await screen.findByRole('heading', { name: 'Reset Password' });
    await waitFor(() => expect(document.title).toBe('Reset Password · Customer Portal'));
    expect(announcer).toHaveTextContent(/^Reset Password$/);
  });

  it('takes the success notices of the screen left behind away on a route change', async () => {
    const router = renderApp(paths.login);
    await screen.findByRole('heading', { name: 'Welcome Back' }, FIRST_SCREEN);
    act(() => {
      toast.success('Copied!');
      toast.error('Something failed');
    });
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
    // a notice raised as the move starts announces the move, and stays
    await new Promise((resolve) => setTimeout(resolve, 1100));
    act(() => {
      toast.success('Redirecting...');
    });
    await act(() => router.navigate(paths.resetPassword));
    await screen.findByRole('heading', { name: 'Reset Password' });
    await waitFor(() => expect(screen.queryByText('Copied!')).not.toBeInTheDocument());
    expect(screen.getByText('Redirecting...')).toBeInTheDocument();
    expect(screen.getByText('Something failed')).toBeInTheDocument();
  });
});
