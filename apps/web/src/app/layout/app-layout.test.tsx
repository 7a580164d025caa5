import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from '@/ui/toaster';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { AppLayout } from './app-layout';
import { navItems } from './nav-items';

/** The sidebar's items as the spec lists them (§2 Layout), in its order. */
const SPEC_ITEMS = ['Dashboard', 'Profile', 'Plans', 'Plugins', 'Orders', 'Consents'];

const user = testUser({ created_at: '2026-01-15T10:00:00.000Z' });

/** Answers the logout call with `logout`; every other call (the bell's list) gets a 404. */
function serveLogout(logout: () => Promise<Response>) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (url) =>
      String(url) === '/api/auth/logout'
        ? logout()
        : jsonResponse(404, { success: false, message: 'Not found' }),
    );
}
const logoutCall = (spy: ReturnType<typeof serveLogout>) =>
  spy.mock.calls.find(([url]) => String(url) === '/api/auth/logout');

function renderLayout(path = '/dashboard') {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'dashboard', element: <h1>Dashboard page</h1> },
          { path: 'profile', element: <h1>Profile page</h1> },
        ],
      },
      { path: '/login', element: <h1>Login page</h1> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  useSessionStore.getState().completeVerification('access-1', user);
  serveLogout(async () => jsonResponse(500, {}));
});
afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('AppLayout', () => {
  it("shows the spec's six sidebar items in its order, then the added ones, with the current one marked, and the signed-in company", () => {
    renderLayout('/profile');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    // the added items are read from the list, so that a new one needs no change here
    const added = navItems.map((item) => item.label).filter((label) => !SPEC_ITEMS.includes(label));
    expect(links.map((l) => l.textContent)).toEqual([...SPEC_ITEMS, ...added]);
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Acme Traders Pvt Ltd')).toBeInTheDocument();
    expect(within(sidebar).getByText('demo@acme.example')).toBeInTheDocument();
    expect(within(sidebar).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('has a labelled search box, the bell, the company with its type and initial, and a skip link', () => {
    renderLayout();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(header).getByText('Acme Traders Pvt Ltd')).toBeInTheDocument();
    expect(within(header).getByText('Customer')).toBeInTheDocument();
    expect(within(header).getByText('A')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute(
      'href',
      '#main-content',
    );
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });

  it('opens the sidebar as a panel from the menu toggle; Escape and navigation close it', async () => {
    const router = renderLayout();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const panel = screen.getByRole('dialog', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(toggle);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Profile' }),
    );
    expect(router.state.location.pathname).toBe('/profile');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(panel).not.toBeInTheDocument();
  });

  it("logs out through the server first, then clears the session with 'Logged out successfully'", async () => {
    const fetchSpy = serveLogout(async () =>
      jsonResponse(200, { success: true, message: 'Logged out' }),
    );
    const router = renderLayout();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    const [, init] = logoutCall(fetchSpy)!;
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer access-1');
    expect(useSessionStore.getState()).toMatchObject({
      user: null,
      token: null,
      tempToken: null,
      isAuthenticated: false,
      rememberMe: false,
    });
    expect(router.state.location.pathname).toBe('/login');
  });

  it("says 'Failed to logout' when the server call fails, and still clears the session", async () => {
    serveLogout(async () => {
      throw new TypeError('Failed to fetch');
    });
    const router = renderLayout();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Failed to logout')).toBeInTheDocument();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(router.state.location.pathname).toBe('/login');
  });
});
