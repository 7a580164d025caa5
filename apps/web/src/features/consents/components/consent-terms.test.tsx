import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Consent, PastConsent } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { ConsentsScreen } from './consents-screen';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

const consent = (over: Partial<Consent> = {}): Consent => ({
  _id: 'id-1',
  consentId: 'sbk-intent-001',
  consentStatus: 'Approved',
  partnerName: 'TallyLink Bank Connector',
  partnerId: 'PTN-TALLYLNK',
  documentUploaded: 'N',
  apiList: ['ReadAccountsBasic', 'ReadBalances', 'ReadTransactionsDetail'],
  netBankingUserId: null,
  accessToken: `sbk_at_${'A'.repeat(70)}`,
  accessTokenExpiresAt: '2099-06-02T10:00:00.000Z',
  refreshToken: null,
  refreshTokenExpiresAt: null,
  createdAt: '2026-05-20T10:00:00.000Z',
  consentCreationDate: '2026-05-20T10:00:00.000Z',
  lastUpdated: '2026-05-21T10:00:00.000Z',
  purpose: 'Bank reconciliation in TallyPrime',
  transactionFromDateTime: '2026-03-31T18:30:00.000Z',
  transactionToDateTime: '2027-03-31T18:29:59.000Z',
  fetchesPerDay: 2,
  expirationDateTime: '2099-03-31T18:29:59.000Z',
  accounts: ['XXXX1234', 'XXXX6789'],
  lastAccessedAt: '2026-05-22T04:44:00.000Z',
  reconnectRequestedAt: null,
  dataLifeDays: 1095,
  readsMade: 1234,
  pausedAt: null,
  ...over,
});

interface Server {
  rows: Consent[];
  past?: PastConsent[];
  one?: Consent;
}

let fetchSpy: MockInstance<typeof fetch>;
const calls = () =>
  fetchSpy.mock.calls.map(([url, init]) => ({
    url: String(url),
    method: (init as RequestInit | undefined)?.method ?? 'GET',
  }));

function serve(server: Server) {
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const page = (data: unknown[]) =>
      jsonResponse(200, {
        success: true,
        data,
        pagination: { total: data.length, page: 1, limit: 10, total_pages: 1 },
        cursors: { next: null, previous: null },
      });
    if (url.pathname === '/api/dashboard/counters') {
      return jsonResponse(200, {
        success: true,
        data: {
          totalConsents: server.rows.length,
          activeConsents: 0,
          pendingConsents: 0,
          expiredConsents: 0,
          rejectedConsents: 0,
          totalPlans: 0,
          totalOrders: 0,
          completedOrders: 0,
          pendingOrders: 0,
          failedOrders: 0,
        },
      });
    }
    if (url.pathname === '/api/user-consents') return page(server.rows);
    if (url.pathname === '/api/user-consents/history') return page(server.past ?? []);
    if (url.pathname.endsWith('/reconnect') && method === 'POST') {
      const asked = { ...(server.one ?? server.rows[0]!), reconnectRequestedAt: inDays(0) };
      return jsonResponse(200, {
        success: true,
        message: `${asked.partnerName} has been asked to reconnect.`,
        data: asked,
      });
    }
    const pause = url.pathname.match(/\/(pause|resume)$/);
    if (pause && method === 'POST') {
      const changed = {
        ...server.rows[0]!,
        pausedAt: pause[1] === 'pause' ? '2026-05-23T04:30:00.000Z' : null,
      };
      server.rows[0] = changed;
      return jsonResponse(200, {
        success: true,
        message: pause[1] === 'pause' ? 'Consent paused' : 'Consent resumed',
        data: changed,
      });
    }
    if (url.pathname.startsWith('/api/user-consents/') && method === 'GET') {
      if (!server.one) return jsonResponse(404, { success: false, message: 'Consent not found' });
      return jsonResponse(200, { success: true, data: server.one });
    }
    return jsonResponse(404, { success: false, message: 'unexpected call' });
  });
}

beforeEach(() => {
  useSessionStore.setState({
    user: { ...testUser({ _id: 'user-1', id: 'user-1' }), id: 'user-1' },
    token: 'tok',
    isAuthenticated: true,
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

const openDetails = async (u: ReturnType<typeof userEvent.setup>, consentId = 'sbk-intent-001') => {
  await u.click(
    await screen.findByRole('button', { name: `View details of consent ${consentId}` }),
  );
  return screen.getByRole('dialog', { name: 'Consent Details' });
};

describe('ConsentsScreen: the consent terms', () => {
  it('shows the terms in the dashboards’ order, with Technical details after them', async () => {
    serve({ rows: [consent()] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    const dialog = await openDetails(u);
    const headings = within(dialog)
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(headings.slice(1, 10)).toEqual([
      'What is shared',
      'Purpose',
      'Transaction period',
      'How often',
      'How long the data is kept',
      'Granted and expires',
      'Accounts',
      'Last accessed',
      'Technical details',
    ]);
    expect(headings.indexOf('Token Information')).toBeGreaterThan(
      headings.indexOf('Technical details'),
    );
    for (const text of [
      'Bank reconciliation in TallyPrime',
      '01/04/2026 to 31/03/2027',
      'Up to 2 times a day',
      'XXXX1234',
      'XXXX6789',
      '22/05/2026, 10:14',
      'TallyLink Bank Connector may keep what it reads for up to 1,095 days',
      'Reads made: 1,234',
    ]) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
  });

  it('names the data clusters in plain words and opens each to its permissions', async () => {
    serve({ rows: [consent()] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    const dialog = await openDetails(u);
    const shared = within(dialog).getByRole('list', { name: 'What is shared' });
    const clusters = within(shared).getAllByRole('group');
    expect(clusters).toHaveLength(2);
    expect(clusters[0]).toHaveTextContent('Your account details');
    expect(clusters[1]).toHaveTextContent('Your account transactions');
    expect(clusters[0]).not.toHaveAttribute('open');
    await u.click(within(clusters[0]!).getByText('Your account details'));
    expect(clusters[0]).toHaveAttribute('open');
    expect(within(clusters[0]!).getByText('Read balances')).toBeVisible();
  });

  it('shows defaults for a consent made without the terms', async () => {
    const bare = consent({
      purpose: undefined,
      transactionFromDateTime: undefined,
      transactionToDateTime: undefined,
      fetchesPerDay: undefined,
      accounts: undefined,
      lastAccessedAt: undefined,
      expirationDateTime: undefined,
      dataLifeDays: undefined,
      readsMade: undefined,
      pausedAt: undefined,
    });
    serve({ rows: [bare] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    expect(await screen.findAllByText('Purpose not stated')).not.toHaveLength(0);
    expect(screen.getAllByText('No expiry').length).toBeGreaterThan(0);
    const dialog = await openDetails(u);
    // the purpose and how long the data is kept
    expect(within(dialog).getAllByText('Not stated by TallyLink Bank Connector')).toHaveLength(2);
    expect(within(dialog).queryByText(/Reads made/)).toBeNull();
    for (const text of [
      'All transactions the bank holds',
      'Up to 4 times a day',
      'The accounts you choose at your bank',
      'TallyLink Bank Connector has not read any data yet',
      'No expiry set',
    ]) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
  });

  it('shows purpose and expiry in the list', async () => {
    serve({ rows: [consent({ expirationDateTime: '2027-01-05T04:44:00.000Z' })] });
    renderWithProviders(<ConsentsScreen />);
    expect(await screen.findAllByText('Bank reconciliation in TallyPrime')).not.toHaveLength(0);
    expect(screen.getByRole('columnheader', { name: 'Expires' })).toBeInTheDocument();
    expect(screen.getAllByText('05/01/2027').length).toBeGreaterThan(0);
  });

  it('names the partner in the delete confirmation, below the spec’s sentence', async () => {
    serve({ rows: [consent()] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(await screen.findByRole('button', { name: 'Delete consent sbk-intent-001' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Consent' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this consent? This action cannot be undone.TallyLink Bank Connector will no longer be able to read your bank data.',
    );
  });
});

describe('ConsentsScreen: Reconnect', () => {
  it('offers Reconnect only for an expired consent and one ending within 30 days', async () => {
    serve({
      rows: [
        consent({ _id: 'a', consentId: 'sbk-soon', expirationDateTime: inDays(29) }),
        consent({ _id: 'b', consentId: 'sbk-far', expirationDateTime: inDays(31) }),
        consent({
          _id: 'c',
          consentId: 'sbk-gone',
          consentStatus: 'Expired',
          expirationDateTime: inDays(-1),
        }),
        consent({
          _id: 'd',
          consentId: 'sbk-pending',
          consentStatus: 'Pending',
          expirationDateTime: inDays(2),
        }),
        consent({
          _id: 'e',
          consentId: 'sbk-asked',
          expirationDateTime: inDays(2),
          reconnectRequestedAt: inDays(-1),
        }),
      ],
    });
    renderWithProviders(<ConsentsScreen />);
    await screen.findByRole('button', { name: 'Reconnect consent sbk-soon' });
    expect(screen.getByRole('button', { name: 'Reconnect consent sbk-gone' })).toBeInTheDocument();
    for (const id of ['sbk-far', 'sbk-pending', 'sbk-asked']) {
      expect(
        screen.queryByRole('button', { name: `Reconnect consent ${id}` }),
      ).not.toBeInTheDocument();
    }
  });

  it('asks the partner after the confirmation, and says so', async () => {
    const soon = consent({ expirationDateTime: inDays(5) });
    serve({ rows: [soon] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(await screen.findByRole('button', { name: 'Reconnect consent sbk-intent-001' }));
    const dialog = screen.getByRole('dialog', { name: 'Reconnect' });
    expect(dialog).toHaveTextContent(
      'TallyLink Bank Connector will be asked to request a fresh consent',
    );
    expect(calls().some((c) => c.method === 'POST')).toBe(false);
    await u.click(within(dialog).getByRole('button', { name: 'Ask to reconnect' }));
    expect(
      await screen.findByText('TallyLink Bank Connector has been asked to reconnect.'),
    ).toBeInTheDocument();
    expect(
      calls()
        .filter((c) => c.method === 'POST')
        .map((c) => c.url),
    ).toEqual(['/api/user-consents/id-1/reconnect']);
  });

  it('opens the Reconnect dialog from a link that names the consent', async () => {
    const linked = consent({
      _id: 'linked-1',
      consentId: 'sbk-linked',
      expirationDateTime: inDays(3),
    });
    serve({ rows: [], one: linked });
    renderWithProviders(<ConsentsScreen />, { path: '/consents?reconnect=linked-1' });
    const dialog = await screen.findByRole('dialog', { name: 'Reconnect' });
    expect(dialog).toHaveTextContent('Your consent for TallyLink Bank Connector ends on');
    expect(calls().map((c) => c.url)).toContain('/api/user-consents/linked-1');
  });

  it('says so when the linked consent cannot be found', async () => {
    serve({ rows: [] });
    renderWithProviders(<ConsentsScreen />, { path: '/consents?reconnect=nothing' });
    expect(await screen.findByText('Failed to open the consent to reconnect')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Reconnect' })).not.toBeInTheDocument();
  });
});

describe('ConsentsScreen: History', () => {
  it('lists past consents with how they ended, and opens their details without Refresh', async () => {
    const past: PastConsent = {
      ...consent({ _id: 'p1', consentId: 'sbk-past' }),
      consentStatus: 'Revoked',
      revokedAt: '2026-05-25T04:44:00.000Z',
      accessToken: null,
    };
    serve({ rows: [consent()], past: [past] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(await screen.findByRole('tab', { name: 'History' }));
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Past consents' });
    expect(within(table).getByText('sbk-past')).toBeInTheDocument();
    expect(within(table).getByText('Revoked')).toBeInTheDocument();
    expect(within(table).getByText('25/05/2026')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls().map((c) => c.url)).toContain(
        '/api/user-consents/history?limit=10&userId=user-1&page=1',
      ),
    );
    await u.click(
      within(table).getByRole('button', { name: 'View details of past consent sbk-past' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Consent Details' });
    expect(within(dialog).getByText('Technical details')).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: 'Refresh Status' }),
    ).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
  });

  it('says what History holds when it is empty', async () => {
    serve({ rows: [], past: [] });
    renderWithProviders(<ConsentsScreen />, { path: '/consents?view=history' });
    expect(await screen.findByText('No past consents')).toBeInTheDocument();
  });

  it('pauses an approved consent from its details, says so, and resumes it', async () => {
    serve({ rows: [consent()] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    const dialog = await openDetails(u);
    expect(within(dialog).queryByText(/Paused since/)).toBeNull();
    await u.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(
      await within(dialog).findByText(
        /Paused since 23\/05\/2026, 10:00: TallyLink Bank Connector cannot read your bank data/,
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByText('Paused').length).toBeGreaterThan(0);
    expect(calls()).toContainEqual({ url: '/api/user-consents/id-1/pause', method: 'POST' });
    await u.click(within(dialog).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(dialog).queryByText(/Paused since/)).toBeNull());
    expect(calls()).toContainEqual({ url: '/api/user-consents/id-1/resume', method: 'POST' });
  });

  it('offers no pause for a consent that is not approved', async () => {
    serve({ rows: [consent({ consentStatus: 'Pending' })] });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    const dialog = await openDetails(u);
    expect(within(dialog).queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Resume' })).toBeNull();
  });
});
