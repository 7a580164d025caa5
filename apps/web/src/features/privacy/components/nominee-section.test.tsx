import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privacyMessages, type Nominee } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { NomineeSection } from './nominee-section';

interface Server {
  nominee: Nominee | null;
  /** The answer to the next PUT instead of saving it. */
  refuse?: { status: number; message: string };
}

/** The nominee calls, answered from `server`; every call made, with its body. */
function serve(server: Server) {
  const calls: { key: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key, body });
    const answer = () =>
      jsonResponse(200, { success: true, message: 'ok', data: { nominee: server.nominee } });
    if (key === 'GET /api/privacy/nominee') return answer();
    if (key === 'PUT /api/privacy/nominee') {
      if (server.refuse)
        return jsonResponse(server.refuse.status, {
          success: false,
          message: server.refuse.message,
        });
      const at = '2026-11-20T04:44:00.000Z';
      server.nominee = { ...(body as Nominee), nominatedAt: at, updatedAt: at };
      return jsonResponse(200, {
        success: true,
        message: privacyMessages.nomineeSaved,
        data: { nominee: server.nominee },
      });
    }
    if (key === 'DELETE /api/privacy/nominee') {
      server.nominee = null;
      return jsonResponse(200, { success: true, message: privacyMessages.nomineeRemoved });
    }
    throw new Error(`unexpected call ${key}`);
  });
  return calls;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const section = () => screen.getByRole('region', { name: 'Nominee' });

describe('NomineeSection', () => {
  it('names a nominee after checking the form, and shows who was named', async () => {
    const server: Server = { nominee: null };
    const calls = serve(server);
    const u = userEvent.setup();
    renderWithProviders(<NomineeSection />);
    expect(await screen.findByText('You have not named a nominee.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Name a nominee' }));
    const dialog = screen.getByRole('dialog', { name: 'Name a nominee' });
    await u.click(within(dialog).getByRole('button', { name: 'Save nominee' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose who they are to you')).toBeInTheDocument();
    expect(calls.some((call) => call.key.startsWith('PUT'))).toBe(false);

    await u.type(within(dialog).getByLabelText('Name'), 'Asha Rao');
    await u.type(within(dialog).getByLabelText('E-mail address'), 'Asha@Example.test');
    await u.selectOptions(within(dialog).getByLabelText('Who they are to you'), 'Spouse');
    await u.click(within(dialog).getByRole('button', { name: 'Save nominee' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.key.startsWith('PUT'))!.body).toEqual({
      name: 'Asha Rao',
      email: 'asha@example.test',
      relation: 'Spouse',
    });
    expect(section()).toHaveTextContent('Asha Rao, your spouse');
    expect(section()).toHaveTextContent('asha@example.test');
    expect(section()).toHaveTextContent('Named on 20/11/2026');
    expect(await screen.findByText(privacyMessages.nomineeSaved)).toBeInTheDocument();
  });

  it("keeps the dialog open with the server's refusal", async () => {
    serve({ nominee: null, refuse: { status: 400, message: privacyMessages.nomineeIsYou } });
    const u = userEvent.setup();
    renderWithProviders(<NomineeSection />);
    await u.click(await screen.findByRole('button', { name: 'Name a nominee' }));
    const dialog = screen.getByRole('dialog', { name: 'Name a nominee' });
    await u.type(within(dialog).getByLabelText('Name'), 'Me');
    await u.type(within(dialog).getByLabelText('E-mail address'), 'me@example.test');
    await u.selectOptions(within(dialog).getByLabelText('Who they are to you'), 'Sibling');
    await u.click(within(dialog).getByRole('button', { name: 'Save nominee' }));
    expect(await within(dialog).findByText(privacyMessages.nomineeIsYou)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Name a nominee' })).toBeInTheDocument();
  });

  it('changes the nominee from the saved details, and removes them after a confirmation', async () => {
    const at = '2026-10-01T04:44:00.000Z';
    const server: Server = {
      nominee: {
        name: 'Asha Rao',
        email: 'asha@example.test',
        relation: 'Spouse',
        nominatedAt: at,
        updatedAt: at,
      },
    };
    const calls = serve(server);
    const u = userEvent.setup();
    renderWithProviders(<NomineeSection />);
    await u.click(await screen.findByRole('button', { name: 'Change nominee' }));
    const dialog = screen.getByRole('dialog', { name: 'Change your nominee' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Asha Rao');
    expect(within(dialog).getByLabelText('Who they are to you')).toHaveValue('Spouse');
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await u.click(screen.getByRole('button', { name: 'Remove nominee' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove your nominee?' });
    expect(confirm).toHaveTextContent(
      'Asha Rao is told by e-mail that they are no longer your nominee.',
    );
    await u.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);

    await u.click(screen.getByRole('button', { name: 'Remove nominee' }));
    await u.click(
      within(screen.getByRole('dialog', { name: 'Remove your nominee?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(await screen.findByText('You have not named a nominee.')).toBeInTheDocument();
    expect(calls.filter((call) => call.key.startsWith('DELETE'))).toHaveLength(1);
  });
});
