import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { privacyMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { PrivacyScreen } from './privacy-screen';

interface Server {
  preferences: { reminders: boolean; consentChanges: boolean } | 'fail';
  /** A refusal of the preferences' save, sent once `after` settles. */
  refuseSave?: { status: number; message: string; after: Promise<void> };
  /** The answer to the e-mail change's first step. */
  emailCode?: { status: number; message: string };
  closeAnswer?: { status: number; message: string };
}

let fetchSpy: MockInstance<typeof fetch>;
/** The bodies of the writes (not the reads) sent to `path`. */
const sent = (path: string) =>
  fetchSpy.mock.calls
    .filter(
      ([url, init]) =>
        new URL(String(url), 'http://localhost').pathname === path &&
        ((init as RequestInit | undefined)?.method ?? 'GET') !== 'GET',
    )
    .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')) as unknown);

function serve(server: Server) {
  let email = 'demo@acme.example';
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (path === '/api/preferences/notifications') {
      if (server.preferences === 'fail')
        return jsonResponse(500, { success: false, message: 'Database is down' });
      if (method === 'PUT' && server.refuseSave) {
        const { status, message, after } = server.refuseSave;
        await after;
        return jsonResponse(status, { success: false, message });
      }
      if (method === 'PUT') server.preferences = body as Server['preferences'] & object;
      return jsonResponse(200, {
        success: true,
        message: method === 'PUT' ? 'Notification preferences saved' : 'fetched',
        data: server.preferences,
      });
    }
    if (path === '/api/privacy/email/code') {
      const answer = server.emailCode ?? { status: 200, message: privacyMessages.newEmailCodeSent };
      // the server keeps addresses lower-cased
      if (answer.status === 200) email = String(body.newEmail).toLowerCase();
      return jsonResponse(answer.status, {
        success: answer.status === 200,
        message: answer.message,
      });
    }
    if (path === '/api/privacy/email')
      return jsonResponse(200, { success: true, message: privacyMessages.emailChanged });
    if (path === '/api/auth/profile')
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        data: { user: testUser({ email }) },
      });
    if (path === '/api/privacy/notice')
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        data: { version: '2026-12-02', readAt: '2026-12-01T04:30:00.000Z' },
      });
    if (path === '/api/privacy/data-export')
      return jsonResponse(200, { success: true, data: null });
    if (path === '/api/privacy/close-account/code')
      return jsonResponse(200, { success: true, message: privacyMessages.codeSent });
    if (path === '/api/privacy/close-account') {
      const answer = server.closeAnswer ?? { status: 200, message: privacyMessages.closed };
      return jsonResponse(answer.status, {
        success: answer.status === 200,
        message: answer.message,
      });
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

describe('the Privacy screen', () => {
  it('saves a notification switch as soon as it changes, and says security notices stay on', async () => {
    serve({ preferences: { reminders: true, consentChanges: true } });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    const reminders = await screen.findByRole('switch', { name: /Reminders/ });
    expect(reminders).toBeChecked();
    await userEvent.click(reminders);
    await waitFor(() => expect(sent('/api/preferences/notifications')).toHaveLength(1));
    expect(sent('/api/preferences/notifications')[0]).toEqual({
      reminders: false,
      consentChanges: true,
    });
    expect(await screen.findByText('Notification preferences saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: /Reminders/ })).not.toBeChecked(),
    );
    expect(screen.getByText(/Security notices are always sent/)).toBeInTheDocument();
  });

  it('shows a switch changed at once, saves one change at a time, and puts it back when the save is refused', async () => {
    let answer = () => {};
    const after = new Promise<void>((resolve) => (answer = resolve));
    serve({
      preferences: { reminders: true, consentChanges: true },
      refuseSave: { status: 503, message: 'Please try again in a minute', after },
    });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    const reminders = await screen.findByRole('switch', { name: /Reminders/ });
    await userEvent.click(reminders);
    await waitFor(() => expect(reminders).not.toBeChecked());
    // not disabled while it is saved: a disabled control would lose the keyboard's focus
    expect(reminders).toBeEnabled();
    expect(reminders).toHaveAttribute('aria-disabled', 'true');
    const consentChanges = screen.getByRole('switch', { name: /Consent changes/ });
    await userEvent.click(consentChanges);
    expect(consentChanges).toBeChecked();
    expect(sent('/api/preferences/notifications')).toHaveLength(1);

    answer();
    expect(await screen.findByText('Please try again in a minute')).toBeInTheDocument();
    await waitFor(() => expect(reminders).toBeChecked());
    expect(reminders).not.toHaveAttribute('aria-disabled');
  });

  it('offers a retry when the preferences cannot be read', async () => {
    serve({ preferences: 'fail' });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is down');
    expect(
      screen.getByRole('button', { name: 'Retry loading your notification preferences' }),
    ).toBeInTheDocument();
  });

  it('changes the e-mail address by a code to the new one, and shows the new one at once', async () => {
    serve({ preferences: { reminders: true, consentChanges: true } });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail address' });
    await userEvent.type(within(dialog).getByLabelText('New e-mail address'), 'New@Acme.example');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByText(/we sent to new@acme.example/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('/api/privacy/email')).toEqual([{ code: '123456' }]);
    expect(useSessionStore.getState().user?.email).toBe('new@acme.example');
    expect(screen.getByText('new@acme.example')).toBeInTheDocument();
  });

  it('shows the server’s refusal of a new address in the dialog and keeps what was typed', async () => {
    serve({
      preferences: { reminders: true, consentChanges: true },
      emailCode: { status: 409, message: privacyMessages.emailTaken },
    });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('New e-mail address'), 'taken@acme.example');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByText(privacyMessages.emailTaken)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('New e-mail address')).toHaveValue('taken@acme.example');
    expect(useSessionStore.getState().user?.email).toBe('demo@acme.example');
  });

  it('closes the account with the password and the mailed code, then signs out', async () => {
    serve({ preferences: { reminders: true, consentChanges: true } });
    const { router } = renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    await userEvent.click(screen.getByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(privacyMessages.codeSent)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await userEvent.type(within(dialog).getByLabelText('Code from the e-mail'), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sent('/api/privacy/close-account')).toEqual([
      { password: 'Secret@123', code: '654321' },
    ]);
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it('keeps the customer signed in and says why when closing fails', async () => {
    serve({
      preferences: { reminders: true, consentChanges: true },
      closeAnswer: { status: 400, message: privacyMessages.wrongCode },
    });
    renderWithProviders(<PrivacyScreen />, { path: '/privacy' });
    await userEvent.click(screen.getByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await userEvent.type(within(dialog).getByLabelText('Code from the e-mail'), '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close account' }));
    expect(await within(dialog).findByText(privacyMessages.wrongCode)).toBeInTheDocument();
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
  });
});
