import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  passkeyMessages,
  twoFactorMessages,
  type Passkey,
  type SecuritySession,
  type SignInEvent,
} from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { LastSignIn } from './last-sign-in';
import { SecurityScreen } from './security-screen';

const session = (id: string, over: Partial<SecuritySession> = {}): SecuritySession => ({
  _id: id,
  browser: 'Chrome on Windows',
  device: 'desktop',
  ip: '203.0.113.7',
  createdAt: '2026-11-22T04:44:00.000Z',
  lastUsedAt: '2026-11-22T05:00:00.000Z',
  current: false,
  ...over,
});

const event = (id: string, over: Partial<SignInEvent> = {}): SignInEvent => ({
  _id: id,
  at: '2026-11-22T04:44:00.000Z',
  outcome: 'success',
  browser: 'Chrome on Windows',
  device: 'desktop',
  ip: '203.0.113.7',
  ...over,
});

interface Server {
  sessions: SecuritySession[] | 'fail' | 'hang';
  /** What sign-in asks for after the password; turning the app off makes it the e-mail. */
  secondFactor?: 'app' | 'email';
  passkeys?: Passkey[];
  history?: { data: SignInEvent[]; nextCursor: string | null }[];
  lastSignIn?: { at: string; browser: string } | null;
}

let fetchSpy: MockInstance<typeof fetch>;
const calls = () =>
  fetchSpy.mock.calls.map(([url, init]) => ({
    path:
      new URL(String(url), 'http://localhost').pathname +
      new URL(String(url), 'http://localhost').search,
    method: (init as RequestInit | undefined)?.method ?? 'GET',
  }));

function serve(server: Server) {
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/security/sessions' && method === 'GET') {
      if (server.sessions === 'hang') return new Promise<Response>(() => undefined);
      if (server.sessions === 'fail')
        return jsonResponse(500, { success: false, message: 'Database is down' });
      return jsonResponse(200, { success: true, message: 'ok', data: server.sessions });
    }
    if (url.pathname.startsWith('/api/security/sessions/') && method === 'DELETE') {
      const id = decodeURIComponent(url.pathname.split('/').at(-1)!);
      if (Array.isArray(server.sessions))
        server.sessions = server.sessions.filter((s) => s._id !== id);
      return jsonResponse(200, { success: true, message: 'The session is signed out.' });
    }
    if (url.pathname === '/api/security/sessions/end-others' && method === 'POST') {
      if (Array.isArray(server.sessions))
        server.sessions = server.sessions.filter((s) => s.current);
      return jsonResponse(200, {
        success: true,
        message: 'All other sessions are signed out.',
        data: { ended: 2 },
      });
    }
    if (url.pathname === '/api/security/two-factor' && method === 'GET') {
      const app = server.secondFactor === 'app';
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        data: {
          secondFactor: server.secondFactor ?? 'email',
          enabledAt: app ? '2026-11-20T04:44:00.000Z' : null,
          recoveryCodesLeft: app ? 10 : 0,
          invitationDismissed: false,
        },
      });
    }
    if (url.pathname === '/api/security/two-factor/disable' && method === 'POST') {
      server.secondFactor = 'email';
      return jsonResponse(200, { success: true, message: twoFactorMessages.disabled });
    }
    if (url.pathname === '/api/security/passkeys' && method === 'GET') {
      return jsonResponse(200, {
        success: true,
        message: passkeyMessages.listed,
        data: { passkeys: server.passkeys ?? [], recoveryCodesLeft: 10 },
      });
    }
    if (url.pathname.endsWith('/remove') && method === 'POST') {
      const id = decodeURIComponent(url.pathname.split('/').at(-2)!);
      server.passkeys = server.passkeys?.filter((p) => p.id !== id);
      return jsonResponse(200, { success: true, message: passkeyMessages.removed });
    }
    if (url.pathname === '/api/security/sign-ins') {
      const pages = server.history ?? [{ data: [], nextCursor: null }];
      const index = url.searchParams.has('cursor') ? Number(url.searchParams.get('cursor')) : 0;
      return jsonResponse(200, { success: true, ...pages[index]! });
    }
    if (url.pathname === '/api/security/last-sign-in') {
      return jsonResponse(200, { success: true, data: server.lastSignIn ?? null });
    }
    return jsonResponse(404, { success: false, message: 'unexpected call' });
  });
}

beforeEach(() => {
  useSessionStore.setState({ user: testUser(), token: 'tok', isAuthenticated: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

/** The first answer waits for the response schemas' chunk, which takes a while in a test. */
const shown = () => screen.findByText('This device', undefined, { timeout: 5000 });

/** The Security page of a customer with the app on and one other session; the user at it. */
async function shownWithAppOn() {
  serve({ sessions: [session('a'), session('here', { current: true })], secondFactor: 'app' });
  renderWithProviders(<SecurityScreen />);
  const user = userEvent.setup();
  await shown();
  return user;
}

/** Turns the authenticator app off from its section, with a code and the password. */
async function turnOffApp(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Turn off' }));
  const dialog = screen.getByRole('dialog', { name: 'Turn off the authenticator app' });
  await user.type(within(dialog).getByLabelText('Code from the app, or a recovery code'), '123456');
  await user.type(within(dialog).getByLabelText('Password'), 'Secret@123');
  await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
}

const sessionsTable = () => screen.getByRole('table', { name: 'Signed-in sessions' });

describe('SecurityScreen', () => {
  it('lists the sessions with this device marked, its address and times in en-IN', async () => {
    serve({
      sessions: [
        session('s-phone', { browser: 'Safari on iOS', device: 'phone', ip: '198.51.100.4' }),
        session('s-here', { current: true }),
      ],
    });
    renderWithProviders(<SecurityScreen />);
    await shown();
    const rows = within(sessionsTable()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('198.51.100.4');
    expect(rows[0]).toHaveTextContent('22/11/2026, 10:14');
    expect(rows[0]).toHaveTextContent('22/11/2026, 10:30');
    expect(within(rows[0]!).getByRole('button', { name: 'Sign out Safari on iOS' })).toBeVisible();
    expect(rows[1]).toHaveTextContent('This device');
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
  });

  it('signs out one session only after its confirmation', async () => {
    serve({
      sessions: [
        session('s-phone', { browser: 'Safari on iOS', device: 'phone' }),
        session('s-here', { current: true }),
      ],
    });
    renderWithProviders(<SecurityScreen />);
    const user = userEvent.setup();
    await shown();
    await user.click(screen.getByRole('button', { name: 'Sign out Safari on iOS' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out this session?' });
    expect(dialog).toHaveTextContent('Safari on iOS is signed out at once');
    expect(calls().filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await screen.findByText('The session is signed out.');
    expect(calls().filter((c) => c.method === 'DELETE')).toEqual([
      { path: '/api/security/sessions/s-phone', method: 'DELETE' },
    ]);
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull());
    expect(screen.getByText('Your account is signed in on this device only.')).toBeVisible();
  });

  it('signs out all others after a confirmation that Cancel leaves without a call', async () => {
    serve({ sessions: [session('a'), session('b'), session('here', { current: true })] });
    renderWithProviders(<SecurityScreen />);
    const user = userEvent.setup();
    await shown();
    const button = screen.getByRole('button', { name: 'Sign out all other sessions' });
    await user.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Sign out all other sessions?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(button).toHaveFocus());
    expect(calls().filter((c) => c.method === 'POST')).toEqual([]);

    await user.click(button);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out all others' }),
    );
    await screen.findByText('All other sessions are signed out.');
    expect(calls().filter((c) => c.method === 'POST')).toEqual([
      { path: '/api/security/sessions/end-others', method: 'POST' },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).toBeNull(),
    );
  });

  it('offers to sign out the other sessions once the authenticator app is turned off, until done or declined', async () => {
    const user = await shownWithAppOn();
    const offer = /Your two-step sign-in changed/;
    expect(screen.queryByText(offer)).toBeNull();

    await turnOffApp(user);
    const said = await screen.findByText(offer);
    // announced: it sits in a status region that was there before it
    expect(said.closest('[role="status"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByText(offer)).toBeNull();
    expect(calls().filter((c) => c.path.endsWith('/end-others'))).toEqual([]);
  });

  it('signs out the other sessions from the offer, after the usual confirmation', async () => {
    const user = await shownWithAppOn();
    await turnOffApp(user);

    await user.click(await screen.findByRole('button', { name: 'Sign out every other session' }));
    const confirm = screen.getByRole('dialog', { name: 'Sign out all other sessions?' });
    await user.click(within(confirm).getByRole('button', { name: 'Sign out all others' }));
    await screen.findByText('All other sessions are signed out.');
    expect(calls().filter((c) => c.path.endsWith('/end-others'))).toEqual([
      { path: '/api/security/sessions/end-others', method: 'POST' },
    ]);
    await waitFor(() => expect(screen.queryByText(/Your two-step sign-in changed/)).toBeNull());
  });

  it('shows the passkeys beside the app, and offers to sign out the other sessions once one is removed', async () => {
    serve({
      sessions: [session('a'), session('here', { current: true })],
      passkeys: [
        {
          id: 'pk-1',
          name: 'Work laptop',
          createdAt: '2026-11-20T04:44:00.000Z',
          lastUsedAt: null,
          synced: false,
        },
      ],
    });
    renderWithProviders(<SecurityScreen />);
    const user = userEvent.setup();
    await shown();
    const passkeys = await screen.findByRole('region', { name: 'Passkeys' });
    expect(screen.getByRole('region', { name: 'Authenticator app' })).toBeVisible();
    await user.click(within(passkeys).getByRole('button', { name: 'Remove Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this passkey?' });
    await user.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/Your two-step sign-in changed/)).toBeVisible();
    expect(within(passkeys).getByText(/^No passkeys yet\./)).toBeVisible();
  });

  it('says what failed and retries, keeps the layout while loading, and says when there are none', async () => {
    serve({ sessions: 'fail' });
    const first = renderWithProviders(<SecurityScreen />);
    const user = userEvent.setup();
    expect(await screen.findByText('Database is down')).toBeVisible();
    serve({ sessions: [session('here', { current: true })] });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This device')).toBeVisible();
    first.unmount();

    serve({ sessions: 'hang' });
    const loading = renderWithProviders(<SecurityScreen />);
    expect(sessionsTable()).toHaveAttribute('aria-busy', 'true');
    loading.unmount();

    serve({ sessions: [] });
    renderWithProviders(<SecurityScreen />);
    expect(await screen.findByText('No signed-in sessions')).toBeVisible();
  });

  it('shows the sign-in history with each outcome, and loads the next page on request', async () => {
    serve({
      sessions: [session('here', { current: true })],
      history: [
        {
          data: [
            event('3'),
            event('2', { outcome: 'wrong_code', browser: 'Safari on iOS', device: 'phone' }),
          ],
          nextCursor: '1',
        },
        { data: [event('1', { outcome: 'wrong_password', ip: '' })], nextCursor: null },
      ],
    });
    renderWithProviders(<SecurityScreen />);
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Sign-in history' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Signed inChrome on Windows203.0.113.722/11/2026, 10:14',
      'Wrong codeSafari on iOS203.0.113.722/11/2026, 10:14',
    ]);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(list).getAllByRole('listitem')[2]).toHaveTextContent(
      'Wrong passwordChrome on WindowsNot recorded',
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('Sign-ins and failed attempts of the last 90 days.')).toBeVisible();
  });

  it('says when nothing is recorded yet', async () => {
    serve({ sessions: [session('here', { current: true })] });
    renderWithProviders(<SecurityScreen />);
    expect(await screen.findByText('No sign-ins recorded yet')).toBeVisible();
  });
});

describe('LastSignIn', () => {
  it('names the previous sign-in’s date, time and browser, with a way to the Security page', async () => {
    serve({
      sessions: [],
      lastSignIn: { at: '2026-11-22T04:44:00.000Z', browser: 'Chrome on Windows' },
    });
    renderWithProviders(<LastSignIn />);
    expect(
      await screen.findByText(/^Last sign-in: 22\/11\/2026, 10:14, Chrome on Windows\./),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Review security' })).toHaveAttribute(
      'href',
      '/security',
    );
  });

  it('says there was none before on a first sign-in', async () => {
    serve({ sessions: [], lastSignIn: null });
    renderWithProviders(<LastSignIn />);
    expect(await screen.findByText(/^Last sign-in: none before this one\./)).toBeVisible();
  });
});
