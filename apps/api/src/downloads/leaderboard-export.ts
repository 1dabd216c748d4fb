// The leaderboard as a download: the query string is validated like the GraphQL arguments, the
// JSON is the GraphQL `leaderboard` object (enums by their GraphQL names), the CSV one row per system.
import { z } from 'zod';
import { parseInput } from '../common/parse-input';
import { MAX_RESAMPLES, type LeaderboardOptions } from '../leaderboard/leaderboard.service';
import { PValueCorrection, PairedTest, type Leaderboard } from '../leaderboard/leaderboard.types';
import { csvRow } from './csv-writer';

const INT32 = 2 ** 31;

function enumParam<E extends Record<string, string>>(values: E, what: string) {
  const allowed = Object.values(values);
  return z
    .string()
    .transform((s) => s.toLowerCase())
    .refine((s) => allowed.includes(s), `${what} must be one of ${allowed.join(', ')} (any case)`)
    .transform((s) => s as E[keyof E]);
}

const integer = (what: string) =>
  z
    .string()
    .regex(/^[+-]?\d+$/, `${what} must be an integer`)
    .transform(Number)
    .refine((n) => n >= -INT32 && n < INT32, `${what} must fit in 32 bits`);

const leaderboardQuery = z.object({
  // '+' in a query string decodes to a space; metric keys never contain spaces, so put it back.
  metric: z
    .string()
    .min(1, 'metric must not be empty')
    .max(200)
    .transform((s) => s.replace(/ /g, '+'))
    .optional(),
  test: enumParam(PairedTest, 'test').optional(),
  correction: enumParam(PValueCorrection, 'correction').optional(),
  seed: integer('seed').optional(),
  resamples: integer('resamples')
    .refine((n) => n >= 1 && n <= MAX_RESAMPLES, `resamples must be between 1 and ${MAX_RESAMPLES}`)
    .optional(),
});

/** Leaderboard options from a query string (`?metric=&test=&correction=&seed=&resamples=`); INVALID_INPUT naming the field. */
export function parseLeaderboardQuery(query: Record<string, unknown>): LeaderboardOptions {
  const q = parseInput(leaderboardQuery, {
    metric: query['metric'],
    test: query['test'],
    correction: query['correction'],
    seed: query['seed'],
    resamples: query['resamples'],
  });
  const options: LeaderboardOptions = {};
  if (q.metric !== undefined) options.metric = q.metric;
  if (q.test !== undefined) options.test = q.test;
  if (q.correction !== undefined) options.correction = q.correction;
  if (q.seed !== undefined) options.seed = q.seed;
  if (q.resamples !== undefined) options.resamples = q.resamples;
  if (query['submissions'] === 'all') options.entries = 'all';
  return options;
}

/** Metric keys from a query string: `metric=a&metric=b` or `metric=a,b`; '+' decoded as a space is restored. */
export function parseMetricList(value: unknown): string[] {
  if (value === undefined) return [];
  const list = parseInput(z.union([z.string(), z.array(z.string())]), value, 'metric');
  return (Array.isArray(list) ? list : [list])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().replace(/ /g, '+'))
    .filter((v) => v !== '');
}

/** The leaderboard exactly as GraphQL returns it when every field is selected (what workers store). */
export { leaderboardJson } from '@podium/leaderboard';

/** Columns of `leaderboard.csv`, one row per system in leaderboard order. */
export const LEADERBOARD_COLUMNS = [
  'main_aggregation',
  'rank_corpus',
  'rank_mean',
  'rank_median',
  'rank_bt',
  'rank_elo',
  'rank_trueskill',
  'system',
  'team',
  'submission_id',
  'is_baseline',
  'n',
  'corpus_score',
  'corpus_bootstrap_mean',
  'corpus_ci_halfwidth',
  'corpus_ci_low',
  'corpus_ci_high',
  'mean',
  'mean_ci_low',
  'mean_ci_high',
  'median',
  'median_ci_low',
  'median_ci_high',
  'bt',
  'bt_ci_low',
  'bt_ci_high',
  'bt_tier',
  'elo',
  'trueskill_mu',
  'trueskill_sigma',
  'rank_mean_best',
  'rank_mean_worst',
  'rank_median_best',
  'rank_median_worst',
  'rank_bt_best',
  'rank_bt_worst',
  'rank_corpus_best',
  'rank_corpus_worst',
  'rank_elo_order_best',
  'rank_elo_order_worst',
  'rank_trueskill_order_best',
  'rank_trueskill_order_worst',
  'cluster_corpus',
  'cluster_mean',
  'cluster_median',
  'cluster_bt',
  'cluster_disagreement',
  'metric',
  'signature',
  'corpus_signature',
  'test',
  'correction',
  'seed',
  'resamples',
] as const;

const cell = (x: number | string | boolean | null): string | number => (x === null ? '' : typeof x === 'boolean' ? String(x) : x);

/** `leaderboard.csv`: numbers as JavaScript prints them (the JSON's digits), empty for null. */
export function leaderboardCsv(board: Leaderboard): string {
  let out = csvRow(LEADERBOARD_COLUMNS);
  for (const s of board.systems) {
    const row: Record<(typeof LEADERBOARD_COLUMNS)[number], number | string | boolean | null> = {
      main_aggregation: board.mainAggregation,
      rank_corpus: s.rank.corpus,
      rank_mean: s.rank.mean,
      rank_median: s.rank.median,
      rank_bt: s.rank.bt,
      rank_elo: s.rank.elo,
      rank_trueskill: s.rank.trueskill,
      system: s.system,
      team: s.team,
      submission_id: s.submissionId,
      is_baseline: s.isBaseline,
      n: s.n,
      corpus_score: s.corpusScore,
      corpus_bootstrap_mean: s.corpusCi?.mean ?? null,
      corpus_ci_halfwidth: s.corpusCi?.ci ?? null,
      corpus_ci_low: s.corpusCi?.low ?? null,
      corpus_ci_high: s.corpusCi?.high ?? null,
      mean: s.mean,
      mean_ci_low: s.meanCi.low,
      mean_ci_high: s.meanCi.high,
      median: s.median,
      median_ci_low: s.medianCi.low,
      median_ci_high: s.medianCi.high,
      bt: s.bt,
      bt_ci_low: s.btCi.low,
      bt_ci_high: s.btCi.high,
      bt_tier: s.btTier,
      elo: s.elo,
      trueskill_mu: s.trueskill.mu,
      trueskill_sigma: s.trueskill.sigma,
      rank_mean_best: s.rankInterval.mean.best,
      rank_mean_worst: s.rankInterval.mean.worst,
      rank_median_best: s.rankInterval.median.best,
      rank_median_worst: s.rankInterval.median.worst,
      rank_bt_best: s.rankInterval.bt.best,
      rank_bt_worst: s.rankInterval.bt.worst,
      rank_corpus_best: s.rankInterval.corpus?.best ?? null,
      rank_corpus_worst: s.rankInterval.corpus?.worst ?? null,
      rank_elo_order_best: s.rankInterval.elo?.best ?? null,
      rank_elo_order_worst: s.rankInterval.elo?.worst ?? null,
      rank_trueskill_order_best: s.rankInterval.trueskill?.best ?? null,
      rank_trueskill_order_worst: s.rankInterval.trueskill?.worst ?? null,
      cluster_corpus: s.cluster.corpus,
      cluster_mean: s.cluster.mean,
      cluster_median: s.cluster.median,
      cluster_bt: s.cluster.bt,
      cluster_disagreement: s.clusterDisagreement,
      metric: board.metric,
      signature: s.signature,
      corpus_signature: s.corpusSignature,
      test: board.test,
      correction: board.correction,
      seed: board.seed,
      resamples: board.resamples,
    };
    out += csvRow(LEADERBOARD_COLUMNS.map((c) => cell(row[c])));
  }
  return out;
}
