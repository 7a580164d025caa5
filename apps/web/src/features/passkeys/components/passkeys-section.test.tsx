import {
  browserSupportsWebAuthn,
  startRegistration,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PASSKEYS, passkeyMessages, type Passkey } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { PasskeysSection } from './passkeys-section';

// jsdom has no WebAuthn: the device's prompt is played by these mocks
vi.mock(import('@simplewebauthn/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
}));

const PASSWORD = 'Secret@123';
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcde-fghj${i}`);
const creationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Customer Portal' },
  user: { id: 'dXNlcg', name: 'demo@acme.example', displayName: 'Acme Traders' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const credential: RegistrationResponseJSON = {
  id: 'Y3JlZC0x',
  rawId: 'Y3JlZC0x',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2Nm' },
  authenticatorAttachment: 'platform',
  clientExtensionResults: {},
};

const passkey = (id: string, over: Partial<Passkey> = {}): Passkey => ({
  id,
  name: 'Laptop',
  createdAt: '2027-01-05T04:44:00.000Z',
  lastUsedAt: null,
  synced: false,
  ...over,
});

interface Server {
  passkeys: Passkey[];
  /** When the authenticator app was turned on; null while it is off. */
  appOnSince?: string | null;
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Answers the section's calls from `server`, as the API does; the calls made, in order. */
function serve(server: Server) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ method, path, body: init?.body ? body : undefined });
    const appOn = Boolean(server.appOnSince);
    const ok = (message: string, data?: unknown) =>
      jsonResponse(200, { success: true, message, ...(data === undefined ? {} : { data }) });
    const refuse = (status: number, message: string) =>
      jsonResponse(status, { success: false, message });
    const id = decodeURIComponent(path.split('/')[4] ?? '');
    const found = server.passkeys.find((p) => p.id === id);

    if (method === 'GET' && path === '/api/security/passkeys') {
      return ok(passkeyMessages.listed, {
        passkeys: server.passkeys,
        recoveryCodesLeft: server.passkeys.length > 0 || appOn ? 8 : 0,
      });
    }
    if (method === 'GET' && path === '/api/security/two-factor') {
      return ok('ok', {
        secondFactor: server.passkeys.length > 0 ? 'passkey' : appOn ? 'app' : 'email',
        enabledAt: server.appOnSince ?? null,
        recoveryCodesLeft: 8,
        invitationDismissed: false,
      });
    }
    if (method === 'POST' && path === '/api/security/passkeys/options') {
      if (body.password !== PASSWORD) return refuse(400, passkeyMessages.wrongPassword);
      return ok(passkeyMessages.optionsReady, creationOptions);
    }
    if (method === 'POST' && path === '/api/security/passkeys') {
      const first = server.passkeys.length === 0 && !appOn;
      const added = passkey(`pk-${server.passkeys.length + 1}`, { name: String(body.name) });
      server.passkeys = [...server.passkeys, added];
      return ok(first ? passkeyMessages.addedWithCodes : passkeyMessages.added, {
        passkey: added,
        recoveryCodes: first ? recoveryCodes : null,
      });
    }
    if (method === 'PATCH' && found) {
      const renamed = { ...found, name: String(body.name) };
      server.passkeys = server.passkeys.map((p) => (p.id === id ? renamed : p));
      return ok(passkeyMessages.renamed, { passkey: renamed });
    }
    if (method === 'POST' && found && path.endsWith('/remove')) {
      if (body.password !== PASSWORD) return refuse(400, passkeyMessages.wrongPassword);
      server.passkeys = server.passkeys.filter((p) => p.id !== id);
      return ok(passkeyMessages.removed);
    }
    return refuse(404, 'unexpected call');
  });
  return calls;
}

const writes = (calls: Call[]) => calls.filter((call) => call.method !== 'GET');

beforeEach(() => {
  useSessionStore.setState({ user: testUser(), token: 'tok', isAuthenticated: true });
  vi.mocked(browserSupportsWebAuthn).mockReturnValue(true);
  vi.mocked(startRegistration).mockResolvedValue(credential);
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  vi.mocked(startRegistration).mockReset();
  useSessionStore.getState().clearSession();
});

/** The first answer waits for the response schemas' chunk, which takes a while in a test. */
const list = () => screen.findByRole('list', { name: 'Your passkeys' }, { timeout: 5000 });
const card = () => screen.getByRole('region', { name: 'Passkeys' });

async function openAdd(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
  return screen.getByRole('dialog', { name: 'Add a passkey' });
}

describe('PasskeysSection', () => {
  it('lists each passkey with its dates in en-IN, a Synced badge, and actions named after it', async () => {
    serve({
      passkeys: [
        passkey('pk-1', { name: 'Work laptop' }),
        passkey('pk-2', {
          name: 'iPhone',
          synced: true,
          lastUsedAt: '2027-02-10T05:00:00.000Z',
        }),
      ],
    });
    renderWithProviders(<PasskeysSection />);
    const items = within(await list()).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Work laptop');
    expect(items[0]).toHaveTextContent('Added 05/01/2027 · Never used');
    expect(within(items[0]!).queryByText('Synced')).toBeNull();
    expect(items[1]).toHaveTextContent('Added 05/01/2027 · Last used 10/02/2027, 10:30');
    expect(within(items[1]!).getByText('Synced')).toBeVisible();
    expect(within(items[0]!).getByRole('button', { name: 'Rename Work laptop' })).toBeVisible();
    expect(within(items[1]!).getByRole('button', { name: 'Remove iPhone' })).toBeVisible();
    expect(card()).toHaveTextContent('8 of 10 recovery codes left.');
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it('says what a passkey is when there is none, and offers to add one', async () => {
    serve({ passkeys: [] });
    renderWithProviders(<PasskeysSection />);
    expect(
      await screen.findByText(
        'No passkeys yet. A passkey signs you in with your fingerprint, face or screen lock instead of an e-mailed code.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Your passkeys' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it('adds a first passkey after the password and the device’s prompt, then shows the recovery codes once', async () => {
    const server: Server = { passkeys: [] };
    const calls = serve(server);
    const onChanged = vi.fn();
    renderWithProviders(<PasskeysSection onChanged={onChanged} />);
    const user = userEvent.setup();
    const dialog = await openAdd(user);
    const name = within(dialog).getByLabelText('Passkey name');
    expect(name).toHaveValue('Passkey');
    await user.clear(name);
    await user.type(name, 'Work laptop');
    const create = within(dialog).getByRole('button', { name: 'Create passkey' });
    expect(create).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Password'), PASSWORD);
    await user.click(create);

    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(
      within(saved)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(recoveryCodes);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    expect(writes(calls)).toEqual([
      { method: 'POST', path: '/api/security/passkeys/options', body: { password: PASSWORD } },
      { method: 'POST', path: '/api/security/passkeys', body: { name: 'Work laptop', credential } },
    ]);
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(passkeyMessages.addedWithCodes)).toBeVisible();

    await user.click(within(saved).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const items = within(await list()).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Work laptop');
  });

  it('closes at once, with no codes, when the account had a second step already', async () => {
    serve({ passkeys: [passkey('pk-1')] });
    renderWithProviders(<PasskeysSection />);
    const user = userEvent.setup();
    await list();
    const dialog = await openAdd(user);
    expect(within(dialog).getByLabelText('Passkey name')).toHaveValue('Passkey 2');
    await user.type(within(dialog).getByLabelText('Password'), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText(passkeyMessages.added)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(within(card()).getAllByRole('listitem')).toHaveLength(2));
  });

  it('shows the refusal of a wrong password in the dialog, before any prompt', async () => {
    const calls = serve({ passkeys: [] });
    renderWithProviders(<PasskeysSection />);
    const user = userEvent.setup();
    const dialog = await openAdd(user);
    await user.type(within(dialog).getByLabelText('Password'), 'not the password');
    await user.click(within(dialog).getByRole('button', { name: 'Create passkey' }));
    expect(await within(dialog).findByText(passkeyMessages.wrongPassword)).toBeVisible();
    expect(startRegistration).not.toHaveBeenCalled();
    expect(writes(calls).map((call) => call.path)).toEqual(['/api/security/passkeys/options']);
    expect(screen.getByRole('dialog', { name: 'Add a passkey' })).toBeVisible();
  });

  it('says so when the device’s prompt is closed, adds nothing, and lets the customer try again', async () => {
    const calls = serve({ passkeys: [] });
    vi.mocked(startRegistration).mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    renderWithProviders(<PasskeysSection />);
    const user = userEvent.setup();
    const dialog = await openAdd(user);
    await user.type(within(dialog).getByLabelText('Password'), PASSWORD);
    const create = within(dialog).getByRole('button', { name: 'Create passkey' });
    await user.click(create);
    expect(
      await within(dialog).findByText(
        'The passkey was not created: the prompt was closed or timed out. Try again when you are ready.',
      ),
    ).toBeVisible();
    expect(writes(calls).map((call) => call.path)).toEqual(['/api/security/passkeys/options']);

    await user.click(create);
    expect(await screen.findByRole('dialog', { name: 'Save your recovery codes' })).toBeVisible();
  });

  it('renames a passkey', async () => {
    const calls = serve({ passkeys: [passkey('pk-1', { name: 'Laptop' })] });
    renderWithProviders(<PasskeysSection />);
    const user = userEvent.setup();
    await list();
    await user.click(screen.getByRole('button', { name: 'Rename Laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename passkey' });
    const name = within(dialog).getByLabelText('Passkey name');
    expect(name).toHaveValue('Laptop');
    await user.clear(name);
    await user.type(name, 'Work laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(passkeyMessages.renamed)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('button', { name: 'Rename Work laptop' })).toBeVisible();
    expect(writes(calls)).toEqual([
      { method: 'PATCH', path: '/api/security/passkeys/pk-1', body: { name: 'Work laptop' } },
    ]);
  });

  it('removes a passkey after the password, saying what the last one’s removal means', async () => {
    const calls = serve({ passkeys: [passkey('pk-1', { name: 'Laptop' })] });
    const onChanged = vi.fn();
    renderWithProviders(<PasskeysSection onChanged={onChanged} />);
    const user = userEvent.setup();
    await list();
    await user.click(screen.getByRole('button', { name: 'Remove Laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this passkey?' });
    expect(dialog).toHaveAccessibleDescription(
      '“Laptop” will no longer sign you in. It is your last passkey: sign-in codes will come by e-mail again, and your recovery codes stop working.',
    );
    await user.type(within(dialog).getByLabelText('Password'), 'not the password');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText(passkeyMessages.wrongPassword)).toBeVisible();
    expect(onChanged).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(passkeyMessages.removed)).toBeVisible();
    expect(await screen.findByText(/^No passkeys yet\./)).toBeVisible();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(writes(calls).map(({ path, body }) => ({ path, body }))).toEqual([
      { path: '/api/security/passkeys/pk-1/remove', body: { password: 'not the password' } },
      { path: '/api/security/passkeys/pk-1/remove', body: { password: PASSWORD } },
    ]);
  });

  it('names the authenticator app as what sign-in falls back to when it is on', async () => {
    serve({ passkeys: [passkey('pk-1')], appOnSince: '2026-11-20T04:44:00.000Z' });
    renderWithProviders(<PasskeysSection />);
    const user = userEvent.setup();
    await list();
    // its recovery codes are told of in the app's own section
    expect(card()).not.toHaveTextContent('recovery codes left');
    await user.click(screen.getByRole('button', { name: 'Remove Laptop' }));
    await waitFor(() =>
      expect(screen.getByRole('dialog', { name: 'Remove this passkey?' })).toHaveTextContent(
        'sign-in will ask for the code from your authenticator app again.',
      ),
    );
  });

  it(`stops adding at ${MAX_PASSKEYS} passkeys, and says why`, async () => {
    serve({
      passkeys: Array.from({ length: MAX_PASSKEYS }, (_, i) =>
        passkey(`pk-${i}`, { name: `Key ${i}` }),
      ),
    });
    renderWithProviders(<PasskeysSection />);
    await list();
    const add = screen.getByRole('button', { name: 'Add a passkey' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(passkeyMessages.tooMany);
  });

  it('says when the browser cannot use passkeys, and offers no add', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    serve({ passkeys: [passkey('pk-1')] });
    renderWithProviders(<PasskeysSection />);
    await list();
    expect(card()).toHaveTextContent('This browser cannot create or use passkeys.');
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Laptop' })).toBeVisible();
  });

  it('says what failed, and loads again on Retry', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(503, { success: false, message: 'Please try again in a moment.' }),
    );
    renderWithProviders(<PasskeysSection />);
    expect(await screen.findByText('Please try again in a moment.')).toBeVisible();
    vi.mocked(globalThis.fetch).mockRestore();
    serve({ passkeys: [passkey('pk-1')] });
    await userEvent.click(screen.getByRole('button', { name: 'Retry loading the passkeys' }));
    expect(await list()).toBeVisible();
  });
});
