import { renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationPaths } from '@portal/contract';
import { useNotifications } from '@/features/notifications/api/get-notifications';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { loader } from './app-layout';

const noticesRequested = () =>
  vi.mocked(globalThis.fetch).mock.calls.filter(([url]) => String(url) === notificationPaths.list)
    .length;

afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
  queryClient.clear();
});

describe("the signed-in layout's route", () => {
  it("asks for the bell's notices before rendering, and the bell does not ask again", async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(200, { success: true, unseen: 0, notifications: [] }),
    );
    useSessionStore.setState({ user: testUser(), token: 'token', isAuthenticated: true });
    loader();
    expect(noticesRequested()).toBe(1);
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useNotifications(), { wrapper });
    await waitFor(() => expect(result.current.data?.unseen).toBe(0));
    expect(noticesRequested()).toBe(1);
  });

  it('asks for nothing while nobody is signed in', () => {
    vi.spyOn(globalThis, 'fetch');
    loader();
    expect(globalThis.fetch).not.toHaveBeenCalled();
  });
});
