import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Provider, type Client } from 'urql';
import { LogoutDocument, MeDocument, type MeQuery } from '../graphql/generated';
import { graphqlClient, request, resetGraphqlClient, setRequestToken, useQuery } from './graphql-client';

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

/** The GraphQL client for a subtree without sign-in (component tests): a fresh client, nothing cached. */
export function GraphqlProvider({ children }: { children: ReactNode }) {
  const [client] = useState<Client>(resetGraphqlClient);
  return <Provider value={client}>{children}</Provider>;
}

/**
 * Who is signed in: a web session (http-only cookie set by register/login, invisible to
 * scripts) or an API token kept in localStorage; the token wins when both are present.
 * Holds the GraphQL client, replaced whenever the identity may have changed so that no
 * answer cached for another identity is shown and every watched query runs again.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => {
    const t = storedToken();
    setRequestToken(t);
    return t;
  });
  // The shared client, so that `request` (forms, buttons) and the watched queries share one cache.
  const [client, setClient] = useState<Client>(graphqlClient);
  const refresh = useCallback(() => setClient(resetGraphqlClient()), []);
  const signIn = useCallback((t: string) => {
    const trimmed = t.trim();
    setRequestToken(trimmed);
    try {
      window.localStorage.setItem(STORAGE_KEY, trimmed);
    } catch {
      /* private mode: the token lasts for this page only */
    }
    setToken(trimmed);
    setClient(resetGraphqlClient());
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
      .finally(() => setClient(resetGraphqlClient()));
  }, []);
  return (
    <Provider value={client}>
      <Identity token={token} refresh={refresh} signIn={signIn} signOut={signOut}>
        {children}
      </Identity>
    </Provider>
  );
}

function Identity({ token, refresh, signIn, signOut, children }: Pick<AuthState, 'token' | 'refresh' | 'signIn' | 'signOut'> & { children: ReactNode }) {
  const me = useQuery(MeDocument, {});
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
    [token, me.data, me.loading, me.error?.message, signIn, signOut, refresh],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/**
 * Whether the signed-in user runs organiser actions: on task `taskId` when given, else on any
 * task (the API checks each action against the task; this only decides what to offer).
 */
export function organises(me: { role: string; organisedTaskIds: readonly string[] } | null, taskId?: string): boolean {
  if (!me) return false;
  if (me.role === 'ADMIN') return true;
  return taskId === undefined ? me.organisedTaskIds.length > 0 : me.organisedTaskIds.includes(taskId);
}
