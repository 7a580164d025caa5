import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REMEMBERED_LOGIN_KEY } from '@portal/contract';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { fillCredentials } from '@/test/sign-in';
import { LoginForm } from './login-form';

const user = testUser({ created_at: '2026-01-15T10:00:00.000Z' });

const remembered = {
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tally_serialno: '712345678',
  rememberMe: true,
};

function mockServer(routes: Record<string, (body: unknown) => Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const handler = routes[String(url)];
    if (!handler) throw new Error(`unexpected call to ${String(url)}`);
    return handler(init?.body ? JSON.parse(String(init.body)) : undefined);
  });
}

const bodyOf = (spy: ReturnType<typeof mockServer>, url: string) => {
  const call = spy.mock.calls.find(([u]) => String(u) === url);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
};

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('LoginForm', () => {
  it('shows every required-field message and sends nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<LoginForm />, { path: '/login' });
    await userEvent.click(screen.getByRole('button', { name: 'Secure Login' }));
    for (const message of [
      'Email is required',
      'Mobile number is required',
      'GST number is required',
      'Tally serial number is required',
      'Password is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('takes the focus to the first field in error, and drops a message once its field is fixed', async () => {
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Email'), 'demo@acme.example');
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByText('Mobile number is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile Number')).toHaveFocus();
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await u.type(screen.getByLabelText('Mobile Number'), '9876543210');
    await waitFor(() =>
      expect(screen.queryByText('Mobile number is required')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('GST number is required')).toBeInTheDocument();
  });

  it("says 'Invalid email address' for an address without a domain", async () => {
    renderWithProviders(<LoginForm />, { path: '/login' });
    await userEvent.type(screen.getByLabelText('Email'), 'demo@acme');
    await userEvent.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
  });

  it('offers the fields the spec lists, a numeric serial, a password toggle and the reset link', async () => {
    renderWithProviders(<LoginForm />, { path: '/login' });
    expect(screen.getByLabelText('Tally Serial Number')).toHaveAttribute('inputmode', 'numeric');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
  });

  it("shows 'Signing in...' while the login call runs", async () => {
    let answer: (r: Response) => void = () => {};
    vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = await fillCredentials();
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    answer(jsonResponse(401, { success: false, message: 'Invalid credentials' }));
    expect(await screen.findByText('Invalid credentials')).toBeInTheDocument();
  });

  it('shows the message of an answer without a tempToken, and Unexpected response without either', async () => {
    const fetchSpy = mockServer({
      '/api/auth/login': () => jsonResponse(200, { success: true, message: 'Account locked' }),
    });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = await fillCredentials();
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByText('Account locked')).toBeInTheDocument();

    fetchSpy.mockImplementation(async () => jsonResponse(200, { success: true }));
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByText('Unexpected response')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("falls back to 'Login failed' when the call fails without a message", async () => {
    mockServer({ '/api/auth/login': () => new Response('', { status: 500 }) });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = await fillCredentials();
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
  });
});

describe('Remember me', () => {
  const loginOk = () =>
    jsonResponse(200, { success: true, tempToken: 'temp-1', message: 'Code sent' });

  it('saves the non-password fields on a successful login with the box ticked', async () => {
    const fetchSpy = mockServer({ '/api/auth/login': loginOk });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = await fillCredentials({ rememberMe: true });
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    expect(JSON.parse(localStorage.getItem(REMEMBERED_LOGIN_KEY)!)).toEqual(remembered);
    expect(localStorage.getItem(REMEMBERED_LOGIN_KEY)).not.toContain('Demo@12345');
    expect(bodyOf(fetchSpy, '/api/auth/login')).toMatchObject({
      ...remembered,
      password: 'Demo@12345',
    });
  });

  it('removes the saved entry on a successful login with the box unticked', async () => {
    localStorage.setItem(REMEMBERED_LOGIN_KEY, JSON.stringify(remembered));
    mockServer({ '/api/auth/login': loginOk });
    renderWithProviders(<LoginForm />, { path: '/login' });
    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Remember me'));
    await u.type(screen.getByLabelText('Password'), 'Demo@12345');
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    expect(localStorage.getItem(REMEMBERED_LOGIN_KEY)).toBeNull();
  });

  it('keeps the saved entry when the login fails', async () => {
    localStorage.setItem(REMEMBERED_LOGIN_KEY, JSON.stringify(remembered));
    mockServer({
      '/api/auth/login': () => jsonResponse(401, { success: false, message: 'Wrong details' }),
    });
    renderWithProviders(<LoginForm />, { path: '/login' });
    await userEvent.click(screen.getByLabelText('Remember me'));
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Secure Login' }));
    await screen.findByText('Wrong details');
    expect(localStorage.getItem(REMEMBERED_LOGIN_KEY)).not.toBeNull();
  });

  it('pre-fills the form from the saved entry, never the password', () => {
    localStorage.setItem(REMEMBERED_LOGIN_KEY, JSON.stringify(remembered));
    renderWithProviders(<LoginForm />, { path: '/login' });
    expect(screen.getByLabelText('Email')).toHaveValue('demo@acme.example');
    expect(screen.getByLabelText('Mobile Number')).toHaveValue('9876543210');
    expect(screen.getByLabelText('GST Number')).toHaveValue('27AAPFU0939F1ZV');
    expect(screen.getByLabelText('Tally Serial Number')).toHaveValue('712345678');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Remember me')).toBeChecked();
  });

  it('discards a corrupt saved entry silently, with a console error only', () => {
    const consoleError = vi.mocked(console.error);
    const failOnError = consoleError.getMockImplementation();
    consoleError.mockImplementation(() => {});
    try {
      localStorage.setItem(REMEMBERED_LOGIN_KEY, '{"email": "demo@acme.exa');
      renderWithProviders(<LoginForm />, { path: '/login' });
      expect(screen.getByLabelText('Email')).toHaveValue('');
      expect(screen.getByLabelText('Remember me')).not.toBeChecked();
      expect(localStorage.getItem(REMEMBERED_LOGIN_KEY)).toBeNull();
      expect(consoleError).toHaveBeenCalled();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      consoleError.mockImplementation(failOnError!);
    }
  });
});

describe('TwoFactorDialog', () => {
  // the resend countdown runs on the clock: these tests move it themselves
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const waitOutResendInterval = () => act(() => vi.advanceTimersByTime(60_000));

  async function openDialog(extra: Record<string, (body: unknown) => Response> = {}) {
    const fetchSpy = mockServer({
      '/api/auth/login': () =>
        jsonResponse(200, { success: true, tempToken: 'temp-1', message: 'Code sent' }),
      // the code's mail went as it should, unless a test says otherwise
      '/api/auth/code-mail-status': () =>
        jsonResponse(200, { success: true, data: { status: 'sent' } }),
      ...extra,
    });
    const rendered = renderWithProviders(<LoginForm />, { path: '/login' });
    const u = await fillCredentials();
    await u.click(screen.getByRole('button', { name: 'Secure Login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    return { ...rendered, u, dialog, fetchSpy };
  }

  it('shows the text and enables Verify & Login only at exactly six characters', async () => {
    const { u, dialog } = await openDialog();
    expect(
      within(dialog).getByText(
        "We've sent a verification code to your email. Please enter it below to complete your login.",
      ),
    ).toBeInTheDocument();
    const input = within(dialog).getByLabelText('Verification code');
    const verify = within(dialog).getByRole('button', { name: 'Verify & Login' });
    expect(input).toHaveAttribute('maxlength', '6');
    expect(verify).toBeDisabled();
    await u.type(input, '12345');
    expect(verify).toBeDisabled();
    await u.type(input, '6');
    expect(verify).toBeEnabled();
    await u.type(input, '7');
    expect(input).toHaveValue('123456');
    await u.type(input, '{Backspace}');
    expect(verify).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('stores the session and goes to /dashboard after a correct code', async () => {
    const { u, dialog, router, fetchSpy } = await openDialog({
      '/api/auth/verify-2fa': () =>
        jsonResponse(200, { success: true, message: 'Login successful!', token: 'access-1', user }),
    });
    await u.type(within(dialog).getByLabelText('Verification code'), '123456');
    await u.click(within(dialog).getByRole('button', { name: 'Verify & Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(bodyOf(fetchSpy, '/api/auth/verify-2fa')).toEqual({
      tempToken: 'temp-1',
      verificationCode: '123456',
    });
    expect(useSessionStore.getState()).toMatchObject({
      token: 'access-1',
      tempToken: null,
      isAuthenticated: true,
      user: { id: 'c1', email: 'demo@acme.example' },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('starts the new session with nothing cached from an earlier one', async () => {
    const { u, dialog } = await openDialog({
      '/api/auth/verify-2fa': () =>
        jsonResponse(200, { success: true, message: 'Login successful!', token: 'access-1', user }),
    });
    queryClient.setQueryData(['profile'], { company_name: 'Someone Else Ltd' });
    await u.type(within(dialog).getByLabelText('Verification code'), '123456');
    await u.click(within(dialog).getByRole('button', { name: 'Verify & Login' }));
    await waitFor(() => expect(useSessionStore.getState().isAuthenticated).toBe(true));
    expect(queryClient.getQueryData(['profile'])).toBeUndefined();
  });

  it("shows the server's message for a wrong code, or 'Verification failed'", async () => {
    const { u, dialog, fetchSpy } = await openDialog({
      '/api/auth/verify-2fa': () =>
        jsonResponse(400, { success: false, message: 'Invalid verification code' }),
    });
    await u.type(within(dialog).getByLabelText('Verification code'), '000000');
    await u.click(within(dialog).getByRole('button', { name: 'Verify & Login' }));
    expect(await within(dialog).findByText('Invalid verification code')).toBeInTheDocument();

    fetchSpy.mockImplementation(async () => new Response('', { status: 502 }));
    await u.click(within(dialog).getByRole('button', { name: 'Verify & Login' }));
    expect(await within(dialog).findByText('Verification failed')).toBeInTheDocument();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it("resends the code: 'Verification code resent!' or the fallback 'Failed to resend code'", async () => {
    const { u, dialog, fetchSpy } = await openDialog({
      '/api/auth/resend-verification': () => jsonResponse(200, { success: true, message: 'Sent' }),
    });
    await waitOutResendInterval();
    await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
    expect(await within(dialog).findByText('Verification code resent!')).toBeInTheDocument();
    expect(bodyOf(fetchSpy, '/api/auth/resend-verification')).toEqual({ tempToken: 'temp-1' });

    fetchSpy.mockImplementation(async () => new Response('', { status: 500 }));
    await waitOutResendInterval();
    await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
    expect(await within(dialog).findByText('Failed to resend code')).toBeInTheDocument();
  });

  it('counts down the minute before Resend Code can be pressed, then enables it', async () => {
    const { dialog } = await openDialog();
    const resend = within(dialog).getByRole('button', { name: 'Resend Code' });
    expect(resend).toBeDisabled();
    expect(resend).toHaveAccessibleDescription('You can ask for a new code in 1:00.');

    act(() => vi.advanceTimersByTime(15_000));
    expect(within(dialog).getByText('0:45')).toBeInTheDocument();
    expect(resend).toBeDisabled();

    act(() => vi.advanceTimersByTime(44_000));
    expect(within(dialog).getByText('0:01')).toBeInTheDocument();
    expect(resend).toBeDisabled();

    act(() => vi.advanceTimersByTime(1_000));
    expect(resend).toBeEnabled();
    expect(within(dialog).queryByText(/You can ask for a new code/)).not.toBeInTheDocument();
  });

  it('after a resend, empties the box for the new code, focuses it, and counts down again', async () => {
    const { u, dialog } = await openDialog({
      '/api/auth/resend-verification': () => jsonResponse(200, { success: true, message: 'Sent' }),
    });
    const input = within(dialog).getByLabelText('Verification code');
    await u.type(input, '111111');
    await waitOutResendInterval();
    await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
    expect(await within(dialog).findByText('Verification code resent!')).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Resend Code' })).toBeDisabled();
    expect(within(dialog).getByText('1:00')).toBeInTheDocument();
  });

  it('keeps the typed code when a resend fails', async () => {
    const { u, dialog } = await openDialog({
      '/api/auth/resend-verification': () =>
        jsonResponse(429, { success: false, message: 'Too many codes were requested.' }),
    });
    const input = within(dialog).getByLabelText('Verification code');
    await u.type(input, '111111');
    await waitOutResendInterval();
    await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
    expect(await within(dialog).findByText('Too many codes were requested.')).toBeInTheDocument();
    expect(input).toHaveValue('111111');
  });

  it('counts down the wait the server asks for when it refuses a resend', async () => {
    const { u, dialog } = await openDialog({
      '/api/auth/resend-verification': () =>
        new Response(
          JSON.stringify({
            success: false,
            message: 'Please wait 42 seconds before requesting a new code.',
          }),
          { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '42' } },
        ),
    });
    await waitOutResendInterval();
    const resend = within(dialog).getByRole('button', { name: 'Resend Code' });
    await u.click(resend);
    expect(
      await within(dialog).findByText('Please wait 42 seconds before requesting a new code.'),
    ).toBeInTheDocument();
    expect(resend).toBeDisabled();
    expect(resend).toHaveAccessibleDescription('You can ask for a new code in 0:42.');
  });

  it('names the masked address the code went to and how long it is valid', async () => {
    const { dialog } = await openDialog();
    expect(dialog).toHaveTextContent('Code sent to d***@acme.example. It is valid for 10 minutes.');
    expect(dialog).not.toHaveTextContent('demo@acme.example');
  });

  it("says 'Email or temp token is missing' without a call when the e-mail is gone", async () => {
    const { u, dialog, fetchSpy } = await openDialog();
    await waitOutResendInterval();
    useSessionStore.setState({ pendingEmail: null });
    const callsBefore = fetchSpy.mock.calls.length;
    await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
    expect(await within(dialog).findByText('Email or temp token is missing')).toBeInTheDocument();
    expect(fetchSpy.mock.calls.length).toBe(callsBefore);
  });

  describe("the code's mail", () => {
    const FAILING =
      'We could not send your code. Our email service is having trouble; we keep trying, so the code may still arrive. If it has not come in a few minutes, try again with Resend Code, or contact support.';
    const SENT_AFTER_ALL = 'Your code has been sent now. Please check your email.';
    const STATUS = '/api/auth/code-mail-status';
    const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    const statusCalls = (spy: ReturnType<typeof mockServer>) =>
      spy.mock.calls.filter(([url]) => String(url) === STATUS);
    /** The status route answering each of `statuses` in turn, the last one from then on. */
    const answering = (...statuses: string[]) => {
      let call = 0;
      return () => {
        const status = statuses[Math.min(call++, statuses.length - 1)];
        return jsonResponse(200, { success: true, data: { status } });
      };
    };

    it('is said to be failing in the live region, and to have gone once a later try sends it', async () => {
      const { dialog, fetchSpy } = await openDialog({
        [STATUS]: answering('queued', 'failing', 'failing', 'sent'),
      });
      await later(2_000);
      expect(statusCalls(fetchSpy)).toHaveLength(1);
      expect(within(dialog).queryByText(FAILING)).not.toBeInTheDocument();

      await later(5_000);
      const failing = await within(dialog).findByText(FAILING);
      expect(failing.closest('[aria-live]')).toHaveAttribute('aria-live', 'polite');
      expect(bodyOf(fetchSpy, STATUS)).toEqual({ tempToken: 'temp-1' });
      // the step stays usable: the code may still arrive
      expect(within(dialog).getByLabelText('Verification code')).toBeEnabled();

      await later(10_000);
      expect(await within(dialog).findByText(SENT_AFTER_ALL)).toBeInTheDocument();
      expect(within(dialog).queryByText(FAILING)).not.toBeInTheDocument();
      // sent: nothing more to ask
      const asked = statusCalls(fetchSpy).length;
      await later(60_000);
      expect(statusCalls(fetchSpy)).toHaveLength(asked);
    });

    it('says nothing while the mail goes as it should, and watches the new code after a resend', async () => {
      const { u, dialog, fetchSpy } = await openDialog({
        '/api/auth/resend-verification': () =>
          jsonResponse(200, { success: true, message: 'Sent' }),
      });
      await later(60_000);
      expect(statusCalls(fetchSpy)).toHaveLength(1);
      expect(within(dialog).queryByText(FAILING)).not.toBeInTheDocument();
      expect(within(dialog).queryByText(SENT_AFTER_ALL)).not.toBeInTheDocument();

      fetchSpy.mockClear();
      await u.click(within(dialog).getByRole('button', { name: 'Resend Code' }));
      expect(await within(dialog).findByText('Verification code resent!')).toBeInTheDocument();
      await later(2_000);
      expect(statusCalls(fetchSpy)).toHaveLength(1);
    });

    it('stops asking once the server refuses, as for a sign-in that is over', async () => {
      const { dialog, fetchSpy } = await openDialog({
        [STATUS]: () =>
          jsonResponse(400, {
            success: false,
            message: 'Verification code has expired. Please sign in again.',
          }),
      });
      await later(2_000);
      expect(statusCalls(fetchSpy)).toHaveLength(1);
      await later(60_000);
      expect(statusCalls(fetchSpy)).toHaveLength(1);
      expect(within(dialog).queryByText(FAILING)).not.toBeInTheDocument();
    });
  });
});
