import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LogoutDocument, MeDocument, type MeQuery } from '../graphql/generated';
import { request, setRequestToken, useQuery } from './graphql-client';

const STORAGE_KEY = 'podium-token';

export type Me = NonNullable<MeQuery['me']>;

interface AuthState {
  /** The API token typed into the page, if any (a web session needs none). */
  token: string | null;
  /** Signed in: with a token or with the session cookie. */
  signedIn: boolean;
  /** Re-reads who is signed in (after signing up or in: the cookie is http-only). */
  refresh: () => void;
  me: Me | null;
  loading: boolean;
  error: string | null;
  signIn: (token: string) => void;
  signOut: () => void;
}

const AuthContext = createContext<AuthState | null>(null);

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Who is signed in: a web session (http-only cookie set by register/login, invisible to
 * scripts) or an API token kept in localStorage; the token wins when both are present.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => {
    const t = storedToken();
    setRequestToken(t);
    return t;
  });
  useEffect(() => setRequestToken(token), [token]);
  const [version, setVersion] = useState(0);
  const me = useQuery(MeDocument, {}, { key: `${token ?? ''}#${version}` });
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  const signIn = useCallback((t: string) => {
    const trimmed = t.trim();
    setRequestToken(trimmed);
    try {
      window.localStorage.setItem(STORAGE_KEY, trimmed);
    } catch {
      /* private mode: the token lasts for this page only */
    }
    setToken(trimmed);
  }, []);
  const signOut = useCallback(() => {
    setRequestToken(null);
    try {
      window.localStorage.removeItem(STORAGE_KEY);
    } catch {
      /* ignore */
    }
    setToken(null);
    void request(LogoutDocument, {})
      .catch(() => undefined)
      .finally(() => setVersion((v) => v + 1));
  }, []);
  const value = useMemo<AuthState>(
    () => ({
      token,
      signedIn: !!token || !!me.data?.me,
      refresh,
      me: me.data?.me ?? null,
      loading: me.loading,
      error: me.error?.message ?? null,
      signIn,
      signOut,
    }),
    [token, me.data, me.loading, me.error, signIn, signOut, refresh],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
