import type { LeaderboardFieldsFragment } from '../graphql/generated';

/** A board as the pages read it from `leaderboard.json`: the LeaderboardFields fragment's selection. */
export type LeaderboardData = LeaderboardFieldsFragment;
export type LeaderboardRow = LeaderboardData['systems'][number];
export type PairRow = LeaderboardData['pairs'][number];

/** A ranking method as the board describes it (key, label, interval kind, clusters, test). */
export type MethodInfo = LeaderboardData['methods'][number];
/** The key of a ranking method of the board (`corpus`, `mean`, `bt`, `mean_win_rate`, …). */
export type Aggregation = string;

/** A row's results under one method (null when the board has no such method). */
export function valueOf(row: LeaderboardRow, method: Aggregation): LeaderboardRow['values'][number] | null {
  return row.values.find((v) => v.method === method) ?? null;
}

/** The board's descriptor of a method, or null. */
export function methodInfo(methods: readonly MethodInfo[], method: Aggregation): MethodInfo | null {
  return methods.find((m) => m.key === method) ?? null;
}

/** The method's label, or its key when the board does not describe it. */
export function methodLabel(methods: readonly MethodInfo[], method: Aggregation): string {
  return methodInfo(methods, method)?.label ?? method;
}

/**
 * The method actually shown: the one chosen if the board has it, else (none chosen, or one the
 * board lacks) the board's main ranking. Before a board is loaded: the one chosen, or ''.
 */
export function effectiveAggregation(aggregation: Aggregation | null, board: { mainAggregation: string; methods: readonly MethodInfo[] } | null): Aggregation {
  if (!board) return aggregation ?? '';
  if (board.methods.length === 0) return aggregation ?? board.mainAggregation;
  return aggregation !== null && board.methods.some((m) => m.key === aggregation) ? aggregation : board.mainAggregation;
}

/** A row's significance cluster under a method (null: the method has no clusters). */
export function clusterIn(row: LeaderboardRow, method: Aggregation): number | null {
  return valueOf(row, method)?.cluster ?? null;
}

/** Whether a pair differs significantly under a method's cluster test (null: not stated for that method). */
export function pairSignificant(p: PairRow, method: Aggregation): boolean | null {
  return (p.significant as Partial<Record<string, boolean | null>>)[method] ?? null;
}

/** Systems significantly different from this one although in the same cluster (WMT-style clusters allow that). */
export function withinClusterSignificant(row: LeaderboardRow, rows: readonly LeaderboardRow[], pairs: readonly PairRow[], aggregation: Aggregation): string[] {
  const c = clusterIn(row, aggregation);
  if (c === null) return [];
  const byId = new Map(rows.map((r) => [r.submissionId, r]));
  const out: string[] = [];
  for (const p of pairs) {
    const other = p.aSubmissionId === row.submissionId ? p.bSubmissionId : p.bSubmissionId === row.submissionId ? p.aSubmissionId : null;
    if (other === null) continue;
    const o = byId.get(other);
    if (o && clusterIn(o, aggregation) === c && pairSignificant(p, aggregation) === true) out.push(o.system);
  }
  return out;
}

/**
 * {@link withinClusterSignificant} for every row at once, in one pass over the pairs (the same
 * lists in the same order): a 1,000-system board has 499,500 pairs, and asking row by row walked
 * them a thousand times.
 */
export function withinClusterSignificantAll(rows: readonly LeaderboardRow[], pairs: readonly PairRow[], aggregation: Aggregation): Map<string, string[]> {
  const byId = new Map(rows.map((r) => [r.submissionId, r]));
  const out = new Map<string, string[]>();
  const add = (id: string, system: string) => {
    const list = out.get(id);
    if (list) list.push(system);
    else out.set(id, [system]);
  };
  for (const p of pairs) {
    const a = byId.get(p.aSubmissionId);
    const b = byId.get(p.bSubmissionId);
    if (!a || !b || p.aSubmissionId === p.bSubmissionId) continue;
    const c = clusterIn(a, aggregation);
    if (c === null || clusterIn(b, aggregation) !== c || pairSignificant(p, aggregation) !== true) continue;
    add(a.submissionId, b.system);
    add(b.submissionId, a.system);
  }
  return out;
}

/** Rows of the leaderboard table per page: a 1,000-system board shows 100 at a time (issue #28). */
export const TABLE_PAGE = 100;

/** Systems in the order of a method's rank (ties keep the API's order; rows without the method last). */
export function orderSystems(rows: readonly LeaderboardRow[], aggregation: Aggregation): LeaderboardRow[] {
  const rank = (row: LeaderboardRow) => valueOf(row, aggregation)?.rank ?? Number.POSITIVE_INFINITY;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => rank(x.row) - rank(y.row) || x.index - y.index)
    .map((x) => x.row);
}

/** A run of consecutive rows (in display order) sharing a significance cluster. */
export interface Band {
  cluster: number | null;
  start: number;
  end: number;
}

/**
 * Groups ordered rows into bands of the same cluster. Clusters are contiguous in rank order, so
 * each band is one run; null when the method has no clusters.
 */
export function clusterBands(ordered: readonly LeaderboardRow[], aggregation: Aggregation): Band[] | null {
  const [first] = ordered;
  if (!first) return [];
  if (clusterIn(first, aggregation) === null) return null;
  const bands: Band[] = [];
  ordered.forEach((row, i) => {
    const c = clusterIn(row, aggregation);
    const last = bands[bands.length - 1];
    if (last && last.cluster === c) last.end = i;
    else bands.push({ cluster: c, start: i, end: i });
  });
  return bands;
}

/** Which system each method puts first (methods every row has, in the board's order). */
export function topSystems(rows: readonly LeaderboardRow[], methods: readonly MethodInfo[]): Partial<Record<Aggregation, string[]>> {
  const out: Partial<Record<Aggregation, string[]>> = {};
  for (const { key } of methods) {
    const ranks = rows.map((r) => valueOf(r, key)?.rank);
    if (ranks.some((r) => r === undefined)) continue;
    const best = Math.min(...(ranks as number[]));
    out[key] = rows.filter((_, i) => ranks[i] === best).map((r) => r.system);
  }
  return out;
}

/**
 * A sentence naming the top system of each method when they do not all agree, e.g.
 * "Mean ranks A first; Bradley–Terry ranks B first"; null when they agree. Systems tied exactly
 * (a pair with no instance won or lost: identical outputs) count as one, so a method that
 * breaks such a tie arbitrarily is no disagreement.
 */
export function topDisagreementNote(
  rows: readonly LeaderboardRow[],
  methods: readonly MethodInfo[],
  pairs: readonly { aSubmissionId: string; bSubmissionId: string; wins: number; losses: number }[] = [],
): string | null {
  if (rows.length < 2) return null;
  const exact = pairs.filter((p) => p.wins === 0 && p.losses === 0);
  const tiedTo = (id: string) => new Set([id, ...exact.flatMap((p) => (p.aSubmissionId === id ? [p.bSubmissionId] : p.bSubmissionId === id ? [p.aSubmissionId] : []))]);
  const tops = topSystems(rows, methods);
  const idOf = new Map(rows.map((r) => [r.system, r.submissionId]));
  const present = methods.map((m) => m.key).filter((a) => tops[a] !== undefined);
  // Two methods agree when each one's top systems are the other's or tied exactly to them.
  const covers = (a: Aggregation, b: Aggregation) => (tops[a] ?? []).every((s) => (tops[b] ?? []).some((t) => tiedTo(idOf.get(t) ?? t).has(idOf.get(s) ?? s)));
  if (present.every((a) => present.every((b) => covers(a, b)))) return null;
  const key = (agg: Aggregation) => (tops[agg] ?? []).join(', ');
  const groups = new Map<string, Aggregation[]>();
  for (const agg of present) groups.set(key(agg), [...(groups.get(key(agg)) ?? []), agg]);
  return [...groups.entries()]
    .map(([systems, aggs]) => `${aggs.map((a) => methodLabel(methods, a)).join(', ')} ${aggs.length === 1 ? 'ranks' : 'rank'} ${systems} first`)
    .join('; ');
}

/** P(row beats column) for every ordered pair, from the Bradley–Terry pair probabilities. */
export interface PairCell {
  row: string;
  col: string;
  rowId: string;
  colId: string;
  pBeats: number | null;
  pAdjusted: number | null;
  significant: boolean;
  wins: number;
  losses: number;
  ties: number;
}

/**
 * Heatmap cells for both orientations of every pair. With an aggregation, a pair is significant
 * exactly when that aggregation's cluster test says so (the API's `significant` flags), so stars
 * and clusters follow one definition; without one, the pairs' own adjusted p < α.
 */
export function pairCells(pairs: readonly PairRow[], alpha = 0.05, aggregation?: Aggregation): PairCell[] {
  const cells: PairCell[] = [];
  for (const p of pairs) {
    const flag = aggregation === undefined ? null : pairSignificant(p, aggregation);
    const significant = flag !== null ? flag : p.pAdjusted !== null && p.pAdjusted < alpha;
    cells.push({ row: p.a, col: p.b, rowId: p.aSubmissionId, colId: p.bSubmissionId, pBeats: p.pBt, pAdjusted: p.pAdjusted, significant, wins: p.wins, losses: p.losses, ties: p.ties });
    cells.push({
      row: p.b, col: p.a, rowId: p.bSubmissionId, colId: p.aSubmissionId,
      pBeats: p.pBt === null ? null : 1 - p.pBt, pAdjusted: p.pAdjusted, significant, wins: p.losses, losses: p.wins, ties: p.ties,
    });
  }
  return cells;
}

/** The pair of two systems oriented as (a, b) whichever order the API stored it in. */
export function findPair(pairs: readonly PairRow[], aId: string, bId: string): { pair: PairRow; flipped: boolean } | null {
  for (const pair of pairs) {
    if (pair.aSubmissionId === aId && pair.bSubmissionId === bId) return { pair, flipped: false };
    if (pair.aSubmissionId === bId && pair.bSubmissionId === aId) return { pair, flipped: true };
  }
  return null;
}

/** Systems per side of one heatmap block: beyond this the matrix is shown block by block (issue #28, arena-sized boards). */
export const HEATMAP_BLOCK = 30;

/** One block of systems (positions start…end − 1 of the board order). */
export interface HeatmapBlock {
  start: number;
  end: number;
  label: string;
}

/** The blocks of `count` systems in the board order, `size` per block: "systems 1–30 of 1000", … */
export function heatmapBlocks(count: number, size = HEATMAP_BLOCK): HeatmapBlock[] {
  const blocks: HeatmapBlock[] = [];
  for (let start = 0; start < count; start += size) {
    const end = Math.min(count, start + size);
    blocks.push({ start, end, label: `systems ${start + 1}–${end} of ${count}` });
  }
  return blocks;
}

/**
 * The cells of one block of the matrix (rows × columns, by submission id): only the pairs with
 * one system among the rows and the other among the columns become cells, so a 1,000-system
 * board (499,500 pairs) draws at most a block's 900 cells, never a million.
 */
export function blockCells(pairs: readonly PairRow[], rows: ReadonlySet<string>, cols: ReadonlySet<string>, alpha = 0.05, aggregation?: Aggregation): PairCell[] {
  const within = pairs.filter((p) => (rows.has(p.aSubmissionId) && cols.has(p.bSubmissionId)) || (rows.has(p.bSubmissionId) && cols.has(p.aSubmissionId)));
  return pairCells(within, alpha, aggregation).filter((c) => rows.has(c.rowId) && cols.has(c.colId));
}

/** What a board document says when its pairs are stored apart, in tiles (ADR 0038). */
export interface PairsApart {
  count: number;
  /** Systems per side of a tile. */
  tile: number;
  tiles: number;
}

/** The board's `pairsApart` (not part of the GraphQL fragment: only `leaderboard.json` has it), or null when its pairs are in the document. */
export function pairsApartOf(board: LeaderboardData): PairsApart | null {
  const v = (board as unknown as { pairsApart?: unknown }).pairsApart;
  if (typeof v !== 'object' || v === null) return null;
  const { count, tile, tiles } = v as Record<string, unknown>;
  return typeof count === 'number' && typeof tile === 'number' && typeof tiles === 'number' && tile >= 1 ? { count, tile, tiles } : null;
}

/**
 * The tiles (row ≤ col) that hold every pair of a system among `rowIds` with one among `colIds`,
 * by their positions in `systemIds` (the board's order): a 30 × 30 block of the matrix in the
 * board's order needs at most 4 tiles of 32; ids not on the board are skipped.
 */
export function tilesCovering(systemIds: readonly string[], rowIds: readonly string[], colIds: readonly string[], tile: number): { row: number; col: number }[] {
  const position = new Map(systemIds.map((id, i) => [id, i]));
  const tilesOf = (ids: readonly string[]) => [...new Set(ids.flatMap((id) => { const p = position.get(id); return p === undefined ? [] : [Math.floor(p / tile)]; }))];
  const rows = tilesOf(rowIds);
  const cols = tilesOf(colIds);
  const keys = new Map<string, { row: number; col: number }>();
  for (const r of rows) {
    for (const c of cols) {
      const t = { row: Math.min(r, c), col: Math.max(r, c) };
      keys.set(`${t.row}:${t.col}`, t);
    }
  }
  return [...keys.values()].sort((x, y) => x.row - y.row || x.col - y.col);
}
