import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY } from '@portal/contract';
import { toSessionUser, useSessionStore } from './session-store';
import { testUser } from '@/test/data';

const user = testUser({
  id: '',
  category: null,
  tally_version: null,
  created_at: '2026-01-15T10:00:00.000Z',
});

const persisted = () => JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null');

afterEach(() => useSessionStore.getState().clearSession());

describe('session store', () => {
  it('takes the id from _id when id is missing', () => {
    expect(toSessionUser(user).id).toBe('c1');
    expect(toSessionUser({ ...user, id: 'c2' }).id).toBe('c2');
  });

  it('persists only user, token, isAuthenticated and rememberMe under auth-storage version 0', () => {
    const store = useSessionStore.getState();
    store.startVerification('demo@acme.example', 'temp-1', true);
    expect(persisted()).toEqual({
      state: { user: null, token: null, isAuthenticated: false, rememberMe: true },
      version: 0,
    });
    store.setLoading(true);
    store.completeVerification('access-1', user);
    store.setLoading(false);
    expect(persisted()).toEqual({
      state: {
        user: { ...user, id: 'c1' },
        token: 'access-1',
        isAuthenticated: true,
        rememberMe: true,
      },
      version: 0,
    });
    expect(useSessionStore.getState().tempToken).toBeNull();
  });

  it('replaces only the token on a refresh', () => {
    const store = useSessionStore.getState();
    store.completeVerification('access-1', user);
    store.setToken('access-2');
    expect(useSessionStore.getState()).toMatchObject({
      token: 'access-2',
      isAuthenticated: true,
      user: { email: 'demo@acme.example' },
    });
  });

  it('clears user, token, tempToken, isAuthenticated and rememberMe on logout', () => {
    const store = useSessionStore.getState();
    store.startVerification('demo@acme.example', 'temp-1', true);
    store.completeVerification('access-1', user);
    store.clearSession();
    expect(useSessionStore.getState()).toMatchObject({
      user: null,
      token: null,
      tempToken: null,
      isAuthenticated: false,
      rememberMe: false,
    });
    expect(persisted().state).toEqual({
      user: null,
      token: null,
      isAuthenticated: false,
      rememberMe: false,
    });
  });
});
