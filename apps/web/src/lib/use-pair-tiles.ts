import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, UNREACHABLE, toErrorDetails } from './graphql-client';
import { pairsApartOf, tilesCovering, type LeaderboardData, type PairRow } from './leaderboard';
import { LEADERBOARD_JSON_HEADERS, pairTileUrl, type LeaderboardArgs } from './leaderboard-request';

/** Fetches one tile of a board's pairs (`leaderboard-pairs.json`); throws {@link ApiError} with the API's message for an error status. */
export async function fetchPairTile(url: string, signal?: AbortSignal): Promise<PairRow[]> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { ...LEADERBOARD_JSON_HEADERS }, credentials: 'same-origin', signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(UNREACHABLE, []);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const details = body === undefined ? [] : toErrorDetails(body);
    throw new ApiError(details.length ? details.map((d) => d.message).join('; ') : `The server answered ${res.status} without a readable body.`, details, res.status);
  }
  const pairs = typeof body === 'object' && body !== null ? (body as { pairs?: unknown }).pairs : undefined;
  if (!Array.isArray(pairs)) throw new ApiError('The server answered with a tile of pairs this page cannot read (no pairs array).', [], res.status);
  return pairs as PairRow[];
}

export interface PairsState {
  pairs: readonly PairRow[];
  /** Tiles still being fetched. */
  loading: boolean;
  error: ApiError | null;
}

/**
 * The pairs of a board between the systems `rowIds` and `colIds` (submission ids): the document's
 * own pairs when it has them; for a board whose pairs are stored apart (`pairsApart`), the tiles
 * that cover those systems, fetched once per board stamp and kept while the page stays.
 */
export function usePairsBetween(phaseId: string, args: LeaderboardArgs, board: LeaderboardData | null, rowIds: readonly string[], colIds: readonly string[]): PairsState {
  const apart = board ? pairsApartOf(board) : null;
  const systemIds = useMemo(() => (board ? board.systems.map((s) => s.submissionId) : []), [board]);
  const tiles = useMemo(() => (apart ? tilesCovering(systemIds, rowIds, colIds, apart.tile) : []), [apart?.tile, systemIds, rowIds, colIds]); // eslint-disable-line react-hooks/exhaustive-deps -- apart is read per render; its tile size is what matters
  const urls = useMemo(() => tiles.map((t) => pairTileUrl(phaseId, args, t.row, t.col)), [tiles, phaseId, args.metric, args.test, args.correction, args.allSubmissions]); // eslint-disable-line react-hooks/exhaustive-deps -- args by value
  const stamp = board?.stamp ?? '';
  const cache = useRef(new Map<string, readonly PairRow[]>());
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<ApiError | null>(null);
  const missing = urls.filter((u) => !cache.current.has(`${stamp}|${u}`));

  useEffect(() => {
    if (!apart || missing.length === 0) return;
    const abort = new AbortController();
    setError(null);
    void Promise.all(
      missing.map(async (url) => {
        const pairs = await fetchPairTile(url, abort.signal);
        cache.current.set(`${stamp}|${url}`, pairs);
      }),
    ).then(
      () => !abort.signal.aborted && setVersion((v) => v + 1),
      (e: unknown) => !abort.signal.aborted && setError(e instanceof ApiError ? e : new ApiError(e instanceof Error ? e.message : String(e), [])),
    );
    return () => abort.abort();
  }, [stamp, missing.join('\n')]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed by the URLs still missing

  const pairs = useMemo(() => {
    if (!board) return [];
    if (!apart) return board.pairs;
    return urls.flatMap((u) => cache.current.get(`${stamp}|${u}`) ?? []);
  }, [board, apart === null, urls, stamp, version]); // eslint-disable-line react-hooks/exhaustive-deps -- the cache is read when a fetch completes (version)
  return { pairs, loading: apart !== null && missing.length > 0 && error === null, error };
}
