import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { choosableTests, usePValueCorrections, useSignificanceTests } from './test-registry';
import { parseLeaderboardState, serializeLeaderboardState, type LeaderboardState } from './url-state';

/** The leaderboard state held in the URL; changes replace the history entry (shareable links). */
export function useLeaderboardState(): [LeaderboardState, (next: LeaderboardState) => void] {
  const [pathname] = useLocation();
  const search = useSearch();
  const registry = useSignificanceTests();
  const corrections = usePValueCorrections();
  const state = useMemo(() => parseLeaderboardState(search, choosableTests(registry), corrections.map((c) => c.value)), [search, registry, corrections]);
  const set = useCallback((next: LeaderboardState) => navigate(pathname + serializeLeaderboardState(next, search), { replace: true }), [pathname, search]);
  return [state, set];
}

/** One extra query parameter (e.g. the paired view's systems). */
export function useSearchParam(name: string): [string | null, (value: string | null) => void] {
  const [pathname] = useLocation();
  const search = useSearch();
  const value = new URLSearchParams(search).get(name);
  const set = useCallback(
    (v: string | null) => {
      const q = new URLSearchParams(search);
      if (v === null) q.delete(name);
      else q.set(name, v);
      const s = q.toString();
      navigate(pathname + (s ? `?${s}` : ''));
    },
    [name, pathname, search],
  );
  return [value, set];
}
