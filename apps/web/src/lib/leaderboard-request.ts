// The request the web sends for a board: the stored document `GET /api/phases/:id/leaderboard.json`
// (the GraphQL `leaderboard` object as a worker stored it). No imports: bench/platform.bench.ts
// sends exactly this request as the web page's board.

/** The board's arguments, as the GraphQL `leaderboard` query takes them (enums by their GraphQL names). */
export interface LeaderboardArgs {
  metric?: string | null;
  test?: string | null;
  correction?: string | null;
  /** Rank every submission, not only each team's primary one. */
  allSubmissions?: boolean;
}

/** Headers the web sends with the board request (the session cookie travels with it). */
export const LEADERBOARD_JSON_HEADERS: Readonly<Record<string, string>> = { accept: 'application/json' };

/**
 * `/api/phases/:id/leaderboard.json?metric=&test=&correction=[&submissions=all]`: one URL per
 * view, so the browser's cache keeps one copy per board and revalidates it with its ETag.
 */
export function leaderboardJsonUrl(phaseId: string, args: LeaderboardArgs): string {
  const q = new URLSearchParams();
  if (args.metric) q.set('metric', args.metric);
  if (args.test) q.set('test', args.test.toLowerCase());
  if (args.correction) q.set('correction', args.correction.toLowerCase());
  if (args.allSubmissions) q.set('submissions', 'all');
  const s = q.toString();
  return `/api/phases/${encodeURIComponent(phaseId)}/leaderboard.json${s ? `?${s}` : ''}`;
}

/**
 * `/api/phases/:id/leaderboard-pairs.json?row=&col=&…`: one tile of a board's pairs (a board of
 * more than 100 systems keeps them out of its document; its `pairsApart` says so), with the same
 * view arguments as the board, so each tile of each view has its own URL and ETag.
 */
export function pairTileUrl(phaseId: string, args: LeaderboardArgs, row: number, col: number): string {
  const board = leaderboardJsonUrl(phaseId, args);
  const q = new URLSearchParams(board.includes('?') ? board.slice(board.indexOf('?') + 1) : '');
  q.set('row', String(row));
  q.set('col', String(col));
  return `/api/phases/${encodeURIComponent(phaseId)}/leaderboard-pairs.json?${q.toString()}`;
}
