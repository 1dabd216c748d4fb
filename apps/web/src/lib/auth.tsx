import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MeDocument, type MeQuery } from '../graphql/generated';
import { setRequestToken, useQuery } from './graphql-client';

const STORAGE_KEY = 'podium-token';

export type Me = NonNullable<MeQuery['me']>;

interface AuthState {
  token: string | null;
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

/** Holds the API token (team or organiser) in localStorage and who it belongs to. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => {
    const t = storedToken();
    setRequestToken(t);
    return t;
  });
  useEffect(() => setRequestToken(token), [token]);
  const me = useQuery(MeDocument, {}, { skip: !token, key: token });
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
  }, []);
  const value = useMemo<AuthState>(
    () => ({ token, me: me.data?.me ?? null, loading: me.loading, error: me.error?.message ?? null, signIn, signOut }),
    [token, me.data, me.loading, me.error, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
