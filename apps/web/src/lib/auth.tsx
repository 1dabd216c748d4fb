import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Provider, type Client } from 'urql';
import { LogoutDocument, MeDocument, StartSessionWithTokenDocument, type MeQuery } from '../graphql/generated';
import { graphqlClient, request, resetGraphqlClient, useQuery } from './graphql-client';

/** Where earlier versions kept the API token; read once to move it into a session, then deleted. */
const LEGACY_STORAGE_KEY = 'podium-token';

export type Me = NonNullable<MeQuery['me']>;

interface AuthState {
  /** Signed in: the session cookie names a user. */
  signedIn: boolean;
  /** Re-reads who is signed in (after signing up or in: the cookie is http-only). */
  refresh: () => void;
  me: Me | null;
  loading: boolean;
  error: string | null;
  /** Why the last token typed in was not accepted, if it was not. */
  tokenError: string | null;
  /** Exchanges an API token for a web session (the token is not kept in the page). */
  signIn: (token: string) => void;
  signOut: () => void;
}

const AuthContext = createContext<AuthState | null>(null);

function takeLegacyToken(): string | null {
  try {
    const t = window.localStorage.getItem(LEGACY_STORAGE_KEY);
    window.localStorage.removeItem(LEGACY_STORAGE_KEY);
    return t;
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
 * Who is signed in: always a web session, an http-only cookie invisible to scripts, started by
 * register/login or by exchanging an API token (an organiser's, a team's) for one. No token is
 * kept in the page or in localStorage, so a script injected into the page has none to steal.
 * Holds the GraphQL client, replaced whenever the identity may have changed so that no answer
 * cached for another identity is shown and every watched query runs again.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  // The shared client, so that `request` (forms, buttons) and the watched queries share one cache.
  const [client, setClient] = useState<Client>(graphqlClient);
  const [tokenError, setTokenError] = useState<string | null>(null);
  const refresh = useCallback(() => setClient(resetGraphqlClient()), []);
  const signIn = useCallback((t: string) => {
    setTokenError(null);
    void request(StartSessionWithTokenDocument, { token: t.trim() })
      .catch((e: unknown) => setTokenError(e instanceof Error ? e.message : String(e)))
      .finally(() => setClient(resetGraphqlClient()));
  }, []);
  // A token an earlier version left in localStorage becomes a session once, and is deleted.
  useEffect(() => {
    const legacy = takeLegacyToken();
    if (legacy) signIn(legacy);
  }, [signIn]);
  const signOut = useCallback(() => {
    setTokenError(null);
    void request(LogoutDocument, {})
      .catch(() => undefined)
      .finally(() => setClient(resetGraphqlClient()));
  }, []);
  return (
    <Provider value={client}>
      <Identity tokenError={tokenError} refresh={refresh} signIn={signIn} signOut={signOut}>
        {children}
      </Identity>
    </Provider>
  );
}

function Identity({ tokenError, refresh, signIn, signOut, children }: Pick<AuthState, 'tokenError' | 'refresh' | 'signIn' | 'signOut'> & { children: ReactNode }) {
  const me = useQuery(MeDocument, {});
  const value = useMemo<AuthState>(
    () => ({
      signedIn: !!me.data?.me,
      refresh,
      me: me.data?.me ?? null,
      loading: me.loading,
      error: me.error?.message ?? null,
      tokenError,
      signIn,
      signOut,
    }),
    [tokenError, me.data, me.loading, me.error?.message, signIn, signOut, refresh],
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
