import type { LeaderboardFieldsFragment } from '../graphql/generated';

/** A board as the pages read it from `leaderboard.json`: the LeaderboardFields fragment's selection. */
export type LeaderboardData = LeaderboardFieldsFragment;
export type LeaderboardRow = LeaderboardData['systems'][number];
export type PairRow = LeaderboardData['pairs'][number];

export const AGGREGATIONS = ['corpus', 'mean', 'median', 'bt', 'elo', 'trueskill'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const AGGREGATION_LABELS: Record<Aggregation, string> = {
  corpus: 'Corpus score',
  mean: 'Mean',
  median: 'Median',
  bt: 'Bradley–Terry',
  elo: 'Elo',
  trueskill: 'TrueSkill',
};

/**
 * The aggregation actually shown: `corpus` exists only for corpus-level metrics (BLEU, chrF,
 * TER); elsewhere it falls back to the mean.
 */
export function effectiveAggregation(aggregation: Aggregation, board: { mainAggregation: string } | null): Aggregation {
  return aggregation === 'corpus' && board?.mainAggregation !== 'corpus' ? 'mean' : aggregation;
}

/** Aggregations that have significance clusters (corpus, mean, median and BT). */
export function clusterOf(row: LeaderboardRow, aggregation: Aggregation): number | null {
  if (aggregation === 'corpus') return row.cluster.corpus;
  return aggregation === 'mean' || aggregation === 'median' || aggregation === 'bt' ? row.cluster[aggregation] : null;
}

/**
 * Rank interval of a system under an aggregation and what it measures: bootstrap over
 * instances for corpus, mean, median and BT; for Elo and TrueSkill the spread over random game
 * orders (order sensitivity, not sampling uncertainty).
 */
export function rankIntervalOf(row: LeaderboardRow, aggregation: Aggregation): { interval: [number, number] | null; kind: 'bootstrap' | 'game order' } {
  const r = row.rankInterval[aggregation];
  return { interval: r ? [r.best, r.worst] : null, kind: rankIntervalKind(aggregation) };
}

/** How an aggregation's rank intervals are made: bootstrap, or the spread over game orders (Elo, TrueSkill). */
export function rankIntervalKind(aggregation: Aggregation): 'bootstrap' | 'game order' {
  return aggregation === 'elo' || aggregation === 'trueskill' ? 'game order' : 'bootstrap';
}

/** Systems significantly different from this one although in the same cluster (WMT-style clusters allow that). */
export function withinClusterSignificant(row: LeaderboardRow, rows: readonly LeaderboardRow[], pairs: readonly PairRow[], aggregation: Aggregation): string[] {
  const c = clusterOf(row, aggregation);
  if (c === null || (aggregation !== 'corpus' && aggregation !== 'mean' && aggregation !== 'median' && aggregation !== 'bt')) return [];
  const byId = new Map(rows.map((r) => [r.submissionId, r]));
  const out: string[] = [];
  for (const p of pairs) {
    const other = p.aSubmissionId === row.submissionId ? p.bSubmissionId : p.bSubmissionId === row.submissionId ? p.aSubmissionId : null;
    if (other === null) continue;
    const o = byId.get(other);
    if (o && clusterOf(o, aggregation) === c && p.significant[aggregation] === true) out.push(o.system);
  }
  return out;
}

/** The value a system is ranked by under an aggregation (TrueSkill: μ − 3σ is not used; the API ranks by μ). */
export function aggregateValue(row: LeaderboardRow, aggregation: Aggregation): number | null {
  switch (aggregation) {
    case 'corpus':
      return row.corpusScore;
    case 'mean':
      return row.mean;
    case 'median':
      return row.median;
    case 'bt':
      return row.bt;
    case 'elo':
      return row.elo;
    case 'trueskill':
      return row.trueskill.mu;
  }
}

/** Systems in the order of an aggregation's rank (ties keep the API's order, then by name). */
export function orderSystems(rows: readonly LeaderboardRow[], aggregation: Aggregation): LeaderboardRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => (x.row.rank[aggregation] ?? x.row.rank.mean) - (y.row.rank[aggregation] ?? y.row.rank.mean) || x.index - y.index)
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
 * each band is one run; null when the aggregation has no clusters.
 */
export function clusterBands(ordered: readonly LeaderboardRow[], aggregation: Aggregation): Band[] | null {
  const [first] = ordered;
  if (!first) return [];
  if (clusterOf(first, aggregation) === null) return null;
  const bands: Band[] = [];
  ordered.forEach((row, i) => {
    const c = clusterOf(row, aggregation);
    const last = bands[bands.length - 1];
    if (last && last.cluster === c) last.end = i;
    else bands.push({ cluster: c, start: i, end: i });
  });
  return bands;
}

/** Which system each aggregation puts first. */
export function topSystems(rows: readonly LeaderboardRow[]): Partial<Record<Aggregation, string[]>> {
  const out: Partial<Record<Aggregation, string[]>> = {};
  for (const agg of AGGREGATIONS) {
    if (rows.some((r) => r.rank[agg] == null)) continue; // null, or absent
    const best = Math.min(...rows.map((r) => r.rank[agg] as number));
    out[agg] = rows.filter((r) => r.rank[agg] === best).map((r) => r.system);
  }
  return out;
}

/**
 * A sentence naming the top system of each aggregation when they do not all agree, e.g.
 * "Mean ranks A first; Bradley–Terry ranks B first"; null when they agree. Systems tied exactly
 * (a pair with no instance won or lost: identical outputs) count as one, so an aggregation that
 * breaks such a tie arbitrarily is no disagreement.
 */
export function topDisagreementNote(rows: readonly LeaderboardRow[], pairs: readonly { aSubmissionId: string; bSubmissionId: string; wins: number; losses: number }[] = []): string | null {
  if (rows.length < 2) return null;
  const exact = pairs.filter((p) => p.wins === 0 && p.losses === 0);
  const tiedTo = (id: string) => new Set([id, ...exact.flatMap((p) => (p.aSubmissionId === id ? [p.bSubmissionId] : p.bSubmissionId === id ? [p.aSubmissionId] : []))]);
  const tops = topSystems(rows);
  const idOf = new Map(rows.map((r) => [r.system, r.submissionId]));
  const present = AGGREGATIONS.filter((a) => tops[a] !== undefined);
  // Two aggregations agree when each one's top systems are the other's or tied exactly to them.
  const covers = (a: Aggregation, b: Aggregation) => (tops[a] ?? []).every((s) => (tops[b] ?? []).some((t) => tiedTo(idOf.get(t) ?? t).has(idOf.get(s) ?? s)));
  if (present.every((a) => present.every((b) => covers(a, b)))) return null;
  const key = (agg: Aggregation) => (tops[agg] ?? []).join(', ');
  const groups = new Map<string, Aggregation[]>();
  for (const agg of present) groups.set(key(agg), [...(groups.get(key(agg)) ?? []), agg]);
  return [...groups.entries()]
    .map(([systems, aggs]) => `${aggs.map((a) => AGGREGATION_LABELS[a]).join(', ')} ${aggs.length === 1 ? 'ranks' : 'rank'} ${systems} first`)
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
    const flag = aggregation === 'corpus' || aggregation === 'mean' || aggregation === 'median' || aggregation === 'bt' ? p.significant[aggregation] : undefined;
    const significant = flag !== undefined && flag !== null ? flag : p.pAdjusted !== null && p.pAdjusted < alpha;
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
