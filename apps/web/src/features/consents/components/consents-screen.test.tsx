import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Consent } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { ConsentsScreen } from './consents-screen';

const user = testUser({
  _id: 'user-1',
  id: 'user-1',
  category: null,
  tally_version: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

const ACCESS = `sbk_at_${'A'.repeat(70)}`;

const consent = (n: number, over: Partial<Consent> = {}): Consent => ({
  _id: `id-${n}`,
  consentId: `sbk-intent-${String(n).padStart(3, '0')}`,
  consentStatus: 'Pending',
  partnerName: n % 2 ? 'LedgerSync Plugin' : 'GST Reconciler',
  partnerId: n % 2 ? 'PTN-LEDGERSYNC' : 'PTN-GSTRECON',
  documentUploaded: n % 3 === 0 ? 'Y' : 'N',
  apiList: ['ReadAccountsBasic', 'ReadBalances', 'ReadTransactionsDetail', 'ReadStatementsDetail'],
  netBankingUserId: 'ACMETRD4101',
  accessToken: ACCESS,
  accessTokenExpiresAt: '2026-06-02T10:00:00.000Z',
  refreshToken: `sbk_rt_${'R'.repeat(70)}`,
  refreshTokenExpiresAt: '2099-09-01T10:00:00.000Z',
  createdAt: '2026-05-20T10:00:00.000Z',
  consentCreationDate: '2026-05-20T10:00:00.000Z',
  lastUpdated: '2026-05-21T10:00:00.000Z',
  ...over,
});

interface Server {
  all: Consent[];
  pages: Record<string, { data: Consent[]; total_pages: number }>;
  refreshed?: Consent;
  failRefresh?: boolean;
  failDelete?: boolean;
  failList?: boolean;
}

let fetchSpy: MockInstance<typeof fetch>;
const calls = () =>
  fetchSpy.mock.calls.map(([url, init]) => ({
    url: String(url),
    method: (init as RequestInit | undefined)?.method ?? 'GET',
    body: (init as RequestInit | undefined)?.body,
  }));

function serve(server: Server) {
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/dashboard/counters' && url.searchParams.get('userId') === 'user-1') {
      const withStatus = (s: string) => server.all.filter((c) => c.consentStatus === s).length;
      return jsonResponse(200, {
        success: true,
        data: {
          totalConsents: server.all.length,
          activeConsents: withStatus('Approved'),
          pendingConsents: withStatus('Pending'),
          expiredConsents: withStatus('Expired'),
          rejectedConsents: withStatus('Rejected'),
          totalPlans: 0,
          totalOrders: 0,
          completedOrders: 0,
          pendingOrders: 0,
          failedOrders: 0,
        },
      });
    }
    if (url.pathname === '/api/user-consents' && method === 'GET') {
      if (server.failList)
        return jsonResponse(500, { success: false, message: 'Database is down' });
      const search = url.searchParams.get('search');
      // the server's cursors carry the page they lead to; here they are just that number
      const cursor = url.searchParams.get('after') ?? url.searchParams.get('before');
      const number = Number(cursor?.split(':')[1] ?? url.searchParams.get('page'));
      const key = `${number}:${url.searchParams.get('consentStatus') ?? ''}${search === null ? '' : `:${search}`}`;
      const page = server.pages[key] ?? { data: [], total_pages: 0 };
      return jsonResponse(200, {
        success: true,
        data: page.data,
        pagination: {
          total: server.all.length,
          page: number,
          limit: 10,
          total_pages: page.total_pages,
        },
        cursors: {
          next: number < page.total_pages ? `after:${number + 1}` : null,
          previous: number > 1 ? `before:${number - 1}` : null,
        },
      });
    }
    if (url.pathname === '/api/consent/getstatus') {
      if (server.failRefresh)
        return jsonResponse(502, { success: false, message: 'The bank could not be reached.' });
      return jsonResponse(200, {
        success: true,
        message: 'Consent status refreshed',
        data: server.refreshed,
      });
    }
    if (url.pathname.startsWith('/api/user-consents/') && method === 'DELETE') {
      if (server.failDelete)
        return jsonResponse(502, { success: false, message: 'The bank could not be reached.' });
      return jsonResponse(200, { success: true, message: 'Consent deleted successfully' });
    }
    return jsonResponse(404, { success: false, message: 'unexpected call' });
  });
}

beforeEach(() => {
  useSessionStore.setState({
    user: { ...user, id: 'user-1' },
    token: 'tok',
    isAuthenticated: true,
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

/** Typing settles before the server is asked: on a busy machine give it time. */
const SETTLED = { timeout: 3000 };

const tenOnPageOne = Array.from({ length: 10 }, (_, i) => consent(i + 1));

describe('ConsentsScreen', () => {
  it('shows the title, the five count tiles and the rows, with the first two APIs and "+N more"', async () => {
    const all = [
      ...tenOnPageOne,
      consent(11, { consentStatus: 'Approved' }),
      consent(12, { consentStatus: 'Rejected' }),
      consent(13, { consentStatus: 'Expired' }),
    ];
    serve({ all, pages: { '1:': { data: tenOnPageOne, total_pages: 2 } } });
    renderWithProviders(<ConsentsScreen />);
    expect(screen.getByRole('heading', { name: 'Consent Management' })).toBeInTheDocument();
    const tiles = screen.getByLabelText('Consent counts');
    await waitFor(() => expect(within(tiles).getByText('13')).toBeInTheDocument());
    for (const [label, n] of [
      ['Total', '13'],
      ['Pending', '10'],
      ['Approved', '1'],
      ['Rejected', '1'],
      ['Expired', '1'],
    ]) {
      expect(within(tiles).getByText(label!).nextElementSibling).toHaveTextContent(n!);
    }
    const row = (await screen.findByText('sbk-intent-001')).closest('tr')!;
    // the permissions in plain words, never the bank's codes
    expect(within(row).getByText('Read accounts')).toBeInTheDocument();
    expect(within(row).getByText('Read balances')).toBeInTheDocument();
    expect(within(row).queryByText('Read transaction details')).not.toBeInTheDocument();
    expect(row).not.toHaveTextContent('ReadAccountsBasic');
    expect(within(row).getByText('+2 more')).toBeInTheDocument();
    expect(within(row).getByText('LedgerSync Plugin')).toBeInTheDocument();
    expect(within(row).getByText('PTN-LEDGERSYNC')).toBeInTheDocument();
    expect(
      within(row).getByRole('button', { name: 'View details of consent sbk-intent-001' }),
    ).toBeEnabled();
    expect(
      within(row).getByRole('button', { name: 'Refresh status of consent sbk-intent-001' }),
    ).toBeEnabled();
    expect(
      within(row).getByRole('button', { name: 'Delete consent sbk-intent-001' }),
    ).toBeEnabled();
    for (const header of ['Consent Details', 'Partner', 'Status', 'APIs', 'Created', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    // the userId sent is the signed-in customer's
    expect(calls().some((c) => c.url.includes('userId=user-1') && c.url.includes('limit=10'))).toBe(
      true,
    );
  });

  it('asks the server to search every consent once typing settles, from page 1', async () => {
    const second = [consent(11), consent(12)];
    const found = [consent(2), consent(12)];
    serve({
      all: [...tenOnPageOne, ...second],
      pages: {
        '1:': { data: tenOnPageOne, total_pages: 2 },
        '2:': { data: second, total_pages: 2 },
        '1::gst recon': { data: found, total_pages: 1 },
      },
    });
    const u = userEvent.setup();
    const { router } = renderWithProviders(<ConsentsScreen />, { path: '/consents' });
    await screen.findByText('Page 1 of 2');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('sbk-intent-011');

    await u.type(screen.getByRole('searchbox', { name: 'Search consents' }), 'gst recon');
    // a consent from the second page is found as well as one from the first
    expect(await screen.findByText('sbk-intent-002', {}, SETTLED)).toBeInTheDocument();
    expect(screen.getByText('sbk-intent-012')).toBeInTheDocument();
    expect(screen.queryByText('sbk-intent-011')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    const searches = calls().filter((c) => c.url.includes('search='));
    // one request for the whole word, not one per key
    expect(searches.map((c) => new URL(c.url, 'http://x').searchParams.get('search'))).toEqual([
      'gst recon',
    ]);
    expect(searches[0]!.url).toContain('page=1');
    expect(router.state.location.search).toBe('?search=gst+recon');
  });

  it('names a search that matched nothing, hides the paging, and clears it on request', async () => {
    serve({
      all: tenOnPageOne,
      pages: {
        '1:': { data: tenOnPageOne, total_pages: 3 },
        '1::zzz': { data: [], total_pages: 0 },
      },
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />, { path: '/consents' });
    await screen.findByText('Page 1 of 3');
    const search = screen.getByRole('searchbox', { name: 'Search consents' });
    await u.type(search, 'zzz');

    expect(await screen.findByText('No consents match “zzz”', {}, SETTLED)).toBeInTheDocument();
    expect(screen.queryByText('No consents found')).not.toBeInTheDocument();
    expect(screen.queryByText('Create your first consent to get started')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('sbk-intent-001')).toBeInTheDocument();
    expect(search).toHaveValue('');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('opens on the search in the address, as a notification links to it', async () => {
    const seven = consent(7);
    serve({ all: tenOnPageOne, pages: { '1::sbk-intent-007': { data: [seven], total_pages: 1 } } });
    renderWithProviders(<ConsentsScreen />, { path: '/consents?search=sbk-intent-007' });
    expect(await screen.findByText('sbk-intent-007')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search consents' })).toHaveValue(
      'sbk-intent-007',
    );
    expect(calls().filter((c) => c.url.startsWith('/api/user-consents?'))).toHaveLength(1);
  });

  it('names a status that matched nothing and offers to show every status', async () => {
    serve({
      all: tenOnPageOne,
      pages: {
        '1:': { data: tenOnPageOne, total_pages: 1 },
        '1:Rejected': { data: [], total_pages: 0 },
      },
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await screen.findByText('sbk-intent-001');
    await u.selectOptions(screen.getByRole('combobox', { name: 'Filter by status' }), 'Rejected');
    expect(await screen.findByText('No Rejected consents')).toBeInTheDocument();
    expect(screen.queryByText('No consents found')).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Show all statuses' }));
    expect(await screen.findByText('sbk-intent-001')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('');
  });

  it('pages with Previous and Next and "Page X of Y"', async () => {
    const second = [consent(11), consent(12)];
    serve({
      all: [...tenOnPageOne, ...second],
      pages: {
        '1:': { data: tenOnPageOne, total_pages: 2 },
        '2:': { data: second, total_pages: 2 },
      },
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('sbk-intent-011')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    // Next and Previous follow the cursors of the page shown, never a bare page number
    expect(calls().some((c) => c.url.includes('after=after%3A2'))).toBe(true);
    await u.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
    expect(calls().some((c) => c.url.includes('before=before%3A1'))).toBe(true);
    expect(calls().some((c) => c.url.includes('page=2'))).toBe(false);
    // the count tiles come from the server's counters, never from every consent
    expect(calls().some((c) => c.url.includes('/user-consents/user/'))).toBe(false);
  });

  it('hides the pagination when there is only one page', async () => {
    serve({ all: tenOnPageOne, pages: { '1:': { data: tenOnPageOne, total_pages: 1 } } });
    renderWithProviders(<ConsentsScreen />);
    await screen.findByText('sbk-intent-001');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('filters by status on the server and starts again at page 1', async () => {
    const approved = [consent(20, { consentStatus: 'Approved' })];
    const second = [consent(11)];
    serve({
      all: [...tenOnPageOne, ...second, ...approved],
      pages: {
        '1:': { data: tenOnPageOne, total_pages: 2 },
        '2:': { data: second, total_pages: 2 },
        '1:Approved': { data: approved, total_pages: 1 },
      },
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await screen.findByText('Page 1 of 2');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('sbk-intent-011');
    const filter = screen.getByRole('combobox', { name: 'Filter by status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Status', 'Pending', 'Approved', 'Rejected', 'Expired']);
    await u.selectOptions(filter, 'Approved');
    expect(await screen.findByText('sbk-intent-020')).toBeInTheDocument();
    expect(screen.queryByText('Page 1 of 2')).not.toBeInTheDocument();
    expect(
      calls().some((c) => c.url.includes('page=1') && c.url.includes('consentStatus=Approved')),
    ).toBe(true);
  });

  it('shows the empty state when there are no consents', async () => {
    serve({ all: [], pages: {} });
    renderWithProviders(<ConsentsScreen />);
    expect(await screen.findByText('No consents found')).toBeInTheDocument();
    expect(screen.getByText('Create your first consent to get started')).toBeInTheDocument();
  });

  it("says 'Failed to fetch consents' with the reason when the list cannot be loaded, and retries", async () => {
    const server: Server = {
      all: tenOnPageOne,
      pages: { '1:': { data: tenOnPageOne, total_pages: 1 } },
      failList: true,
    };
    serve(server);
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch consents');
    expect(alert).toHaveTextContent('Database is down');
    await waitFor(() =>
      expect(screen.getAllByText('Failed to fetch consents').length).toBeGreaterThan(1),
    );
    expect(screen.queryByText('No consents found')).not.toBeInTheDocument();

    server.failList = false;
    await u.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('sbk-intent-001')).toBeInTheDocument();
  });

  it('refreshes a status with only the consent id, then reloads the list', async () => {
    serve({
      all: tenOnPageOne,
      pages: { '1:': { data: tenOnPageOne, total_pages: 1 } },
      refreshed: consent(1, { consentStatus: 'Approved' }),
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(
      await screen.findByRole('button', { name: 'Refresh status of consent sbk-intent-001' }),
    );
    expect(await screen.findByText('Consent status refreshed!')).toBeInTheDocument();
    const post = calls().find((c) => c.url === '/api/consent/getstatus')!;
    expect(JSON.parse(String(post.body))).toEqual({ consentId: 'sbk-intent-001' });
    await waitFor(() =>
      expect(calls().filter((c) => c.url.startsWith('/api/user-consents?'))).toHaveLength(2),
    );
  });

  it("says 'Failed to refresh consent status' when the bank cannot be asked", async () => {
    serve({
      all: tenOnPageOne,
      pages: { '1:': { data: tenOnPageOne, total_pages: 1 } },
      failRefresh: true,
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(
      await screen.findByRole('button', { name: 'Refresh status of consent sbk-intent-001' }),
    );
    expect(await screen.findByText('Failed to refresh consent status')).toBeInTheDocument();
    expect(screen.getByText('The bank could not be reached.')).toBeInTheDocument();
  });

  it('deletes only after the confirmation, and Cancel deletes nothing', async () => {
    serve({ all: tenOnPageOne, pages: { '1:': { data: tenOnPageOne, total_pages: 1 } } });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(await screen.findByRole('button', { name: 'Delete consent sbk-intent-001' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Consent' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this consent? This action cannot be undone.',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls().some((c) => c.method === 'DELETE')).toBe(false);

    await u.click(screen.getByRole('button', { name: 'Delete consent sbk-intent-001' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Consent' });
    // one added line names the partner and what deleting means
    expect(dialog).toHaveTextContent(
      'LedgerSync Plugin will no longer be able to read your bank data.',
    );
    // then what stops, and what becomes of the data already shared
    expect(dialog).toHaveTextContent(
      'What stopsLedgerSync Plugin can no longer read your account details, your account transactions and your statements, from the accounts you chose at your bank.',
    );
    expect(dialog).toHaveTextContent(
      'Data already sharedWhat LedgerSync Plugin has read so far stays with LedgerSync Plugin, under its own terms. To have it deleted, ask LedgerSync Plugin.',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Consent deleted successfully!')).toBeInTheDocument();
    const del = calls().find((c) => c.method === 'DELETE')!;
    expect(del.url).toBe('/api/user-consents/id-1');
  });

  it("says 'Failed to delete consent' when the delete fails", async () => {
    serve({
      all: tenOnPageOne,
      pages: { '1:': { data: tenOnPageOne, total_pages: 1 } },
      failDelete: true,
    });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(await screen.findByRole('button', { name: 'Delete consent sbk-intent-001' }));
    await u.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete consent')).toBeInTheDocument();
  });

  it('shows every item in the details dialog, tokens cut to 50 characters, and copies them', async () => {
    serve({ all: tenOnPageOne, pages: { '1:': { data: tenOnPageOne, total_pages: 1 } } });
    const u = userEvent.setup();
    renderWithProviders(<ConsentsScreen />);
    await u.click(
      await screen.findByRole('button', { name: 'View details of consent sbk-intent-006' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Consent Details' });
    for (const text of [
      'GST Reconciler',
      'PTN-GSTRECON',
      'Uploaded',
      'Read statement details',
      'ACMETRD4101',
      'Created',
      'Consent Date',
    ]) {
      expect(within(dialog).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(within(dialog).getAllByText('Last Updated')).toHaveLength(2);
    expect(within(dialog).getByText(`${ACCESS.slice(0, 50)}...`)).toBeInTheDocument();
    expect(within(dialog).queryByText(ACCESS)).not.toBeInTheDocument();
    expect(dialog).not.toHaveTextContent('ReadStatementsDetail');
    // the access token's expiry has passed, the refresh token's has not
    const [accessExpiry, refreshExpiry] = within(dialog)
      .getAllByText(/^(Expires:|on) /)
      .map((p) => p.textContent);
    expect(accessExpiry).toBe('Expired on 02/06/2026, 15:30');
    expect(refreshExpiry).toBe('Expires: 01/09/2099, 15:30');

    await u.click(within(dialog).getByRole('button', { name: 'Copy Access Token' }));
    expect(await screen.findByText('Access Token copied to clipboard!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(ACCESS);
    await u.click(within(dialog).getByRole('button', { name: 'Copy Partner ID' }));
    expect(await screen.findByText('Partner ID copied to clipboard!')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Copy Net Banking User ID' }));
    expect(await navigator.clipboard.readText()).toBe('ACMETRD4101');
    await u.click(within(dialog).getByRole('button', { name: 'Copy Refresh Token' }));
    expect(await screen.findByText('Refresh Token copied to clipboard!')).toBeInTheDocument();

    expect(within(dialog).getByRole('button', { name: 'Refresh Status' })).toBeEnabled();
    await u.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
