import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { AUTH_STORAGE_KEY, type User } from '@portal/contract';

export type SessionUser = User & { id: string };

export interface SessionState {
  user: SessionUser | null;
  /** Bearer access token. */
  token: string | null;
  /** Handle of the pending verification; never persisted. */
  tempToken: string | null;
  /** E-mail of the pending verification, kept for "Resend Code". */
  pendingEmail: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  rememberMe: boolean;
  setLoading(isLoading: boolean): void;
  startVerification(email: string, tempToken: string, rememberMe: boolean): void;
  completeVerification(token: string, user: User): void;
  setToken(token: string): void;
  setUser(user: User): void;
  clearSession(): void;
}

/** The server user's id may come as `_id` or `id` (spec §3 Session state). */
export function toSessionUser(user: User): SessionUser {
  return { ...user, id: user.id || user._id };
}

const signedOut = {
  user: null,
  token: null,
  tempToken: null,
  pendingEmail: null,
  isAuthenticated: false,
  rememberMe: false,
};

/** The client session, persisted as `auth-storage` version 0 (spec §3). */
export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      ...signedOut,
      isLoading: false,
      setLoading: (isLoading) => set({ isLoading }),
      startVerification: (pendingEmail, tempToken, rememberMe) =>
        set({ pendingEmail, tempToken, rememberMe }),
      completeVerification: (token, user) =>
        set({
          token,
          user: toSessionUser(user),
          isAuthenticated: true,
          tempToken: null,
          pendingEmail: null,
        }),
      setToken: (token) => set({ token }),
      setUser: (user) => set({ user: toSessionUser(user) }),
      clearSession: () => set({ ...signedOut }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      version: 0,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ user, token, isAuthenticated, rememberMe }) => ({
        user,
        token,
        isAuthenticated,
        rememberMe,
      }),
    },
  ),
);
