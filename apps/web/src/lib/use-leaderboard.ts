import { useCallback, useEffect, useState } from 'react';
import { useClient } from 'urql';
import { ApiError, UNREACHABLE, toErrorDetails, type QueryState } from './graphql-client';
import type { LeaderboardData } from './leaderboard';
import { LEADERBOARD_JSON_HEADERS, leaderboardJsonUrl, type LeaderboardArgs } from './leaderboard-request';

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const UNREADABLE = 'The server answered with a leaderboard this page cannot read';

/**
 * Checks the parts of a `leaderboard.json` body the pages cannot do without (the document is the
 * LeaderboardFields fragment's selection, and more: see leaderboard.graphql); throws an
 * {@link ApiError} naming what is wrong otherwise.
 */
export function parseLeaderboard(raw: unknown): LeaderboardData {
  if (!isRecord(raw)) throw new ApiError(`${UNREADABLE} (not a JSON object).`, []);
  const problems: string[] = [];
  if (typeof raw['phaseId'] !== 'string') problems.push('phaseId is not a string');
  if (typeof raw['metric'] !== 'string') problems.push('metric is not a string');
  if (typeof raw['updating'] !== 'boolean') problems.push('updating is not a boolean');
  if (!Array.isArray(raw['availableMetrics'])) problems.push('availableMetrics is not an array');
  const systems = raw['systems'];
  if (!Array.isArray(systems)) problems.push('systems is not an array');
  else if (!systems.every((s) => isRecord(s) && typeof s['submissionId'] === 'string' && typeof s['system'] === 'string' && Array.isArray(s['values']))) {
    problems.push('a system lacks submissionId, system or values');
  }
  if (!Array.isArray(raw['methods'])) problems.push('methods is not an array');
  const pairs = raw['pairs'];
  if (!Array.isArray(pairs)) problems.push('pairs is not an array');
  else if (!pairs.every((p) => isRecord(p) && typeof p['aSubmissionId'] === 'string' && typeof p['bSubmissionId'] === 'string' && isRecord(p['significant']))) {
    problems.push('a pair lacks aSubmissionId, bSubmissionId or significant');
  }
  if (problems.length) throw new ApiError(`${UNREADABLE}: ${problems.join('; ')}.`, []);
  // Checked above as far as the pages rely on it; the rest is the API's own document.
  return raw as unknown as LeaderboardData;
}

/**
 * Fetches a board's stored document with the session cookie. The browser's
 * HTTP cache keeps the answer: the API says `private, no-cache` with a strong ETag, so a repeat
 * request revalidates with If-None-Match and a 304 reuses the cached body (seen here as a 200).
 * Throws {@link ApiError}: the API's message and code for an error status.
 */
export async function fetchLeaderboard(url: string, signal?: AbortSignal): Promise<LeaderboardData> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { ...LEADERBOARD_JSON_HEADERS }, credentials: 'same-origin', signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(UNREACHABLE, []);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (e) {
    if (signal?.aborted) throw e;
    body = undefined;
  }
  if (!res.ok) {
    const details = body === undefined ? [] : toErrorDetails(body);
    if (details.length && details.every((d) => d.message !== 'Unknown error')) {
      throw new ApiError(details.map((d) => d.message).join('; '), details, res.status);
    }
    throw new ApiError(`The server answered ${res.status} without a readable body.`, [], res.status);
  }
  if (body === undefined) throw new ApiError(`${UNREADABLE} (not JSON).`, [], res.status);
  return parseLeaderboard(body);
}

interface Loaded {
  data: LeaderboardData | null;
  error: ApiError | null;
  loading: boolean;
}

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(e instanceof Error ? e.message : String(e), []);
}

/**
 * A phase's board from `leaderboard.json`, as {@link useQuery} serves GraphQL queries: keeps the
 * previous board while other arguments load (so tables do not flash), asks again every `pollMs`
 * while `poll` is true and when `key` changes, and after a sign-in or sign-out (the GraphQL client
 * is replaced then, and a board may be visible to organisers only).
 */
export function useLeaderboard(phaseId: string, args: LeaderboardArgs, options: { poll?: boolean; pollMs?: number; key?: string | null } = {}): QueryState<LeaderboardData> {
  const url = leaderboardJsonUrl(phaseId, args);
  const identity = useClient();
  const key = options.key ?? null;
  const [attempt, setAttempt] = useState(0);
  const refetch = useCallback(() => setAttempt((n) => n + 1), []);
  const [state, setState] = useState<Loaded>({ data: null, error: null, loading: true });

  useEffect(() => {
    const abort = new AbortController();
    setState((s) => ({ data: s.data, error: null, loading: true }));
    void fetchLeaderboard(url, abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setState({ data, error: null, loading: false });
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setState({ data: null, error: asApiError(e), loading: false });
      },
    );
    return () => abort.abort();
  }, [url, key, identity, attempt]);

  useEffect(() => {
    if (!options.poll || !options.pollMs) return;
    const id = setInterval(refetch, options.pollMs);
    return () => clearInterval(id);
  }, [options.poll, options.pollMs, refetch]);

  return { ...state, refetch };
}
