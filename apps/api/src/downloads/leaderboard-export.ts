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

const tileQuery = z.object({
  row: z.string().regex(/^\d{1,6}$/, 'row must be a tile position: an integer ≥ 0').transform(Number),
  col: z.string().regex(/^\d{1,6}$/, 'col must be a tile position: an integer ≥ 0').transform(Number),
});

/** `?row=R&col=C` of a pair tile: integers ≥ 0 (the service checks them against the board). */
export function parseTileQuery(query: Record<string, unknown>): { row: number; col: number } {
  return parseInput(tileQuery, { row: query['row'], col: query['col'] });
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

type Cell = number | string | boolean | null;
interface Column {
  name: string;
  cell: (s: Leaderboard['systems'][number], board: Leaderboard) => Cell;
}

const fixed = (name: string, cell: Column['cell']): Column => ({ name, cell });

/** Per system, before the methods: who it is. */
const SYSTEM_COLUMNS: Column[] = [
  fixed('main_aggregation', (_, b) => b.mainAggregation),
  fixed('system', (s) => s.system),
  fixed('team', (s) => s.team),
  fixed('submission_id', (s) => s.submissionId),
  fixed('is_baseline', (s) => s.isBaseline),
  fixed('n', (s) => s.n),
  fixed('corpus_score', (s) => s.corpusScore),
];

/** Details beyond a method's value, interval, rank and cluster. */
const DETAIL_COLUMNS: Column[] = [
  fixed('corpus_bootstrap_mean', (s) => s.corpusCi?.mean ?? null),
  fixed('corpus_ci_halfwidth', (s) => s.corpusCi?.ci ?? null),
  fixed('bt_tier', (s) => s.btTier),
  fixed('trueskill_sigma', (s) => s.trueskill.sigma),
  fixed('cluster_disagreement', (s) => s.clusterDisagreement),
  fixed('metric', (_, b) => b.metric),
  fixed('signature', (s) => s.signature),
  fixed('corpus_signature', (s) => s.corpusSignature),
  fixed('test', (_, b) => b.test),
  fixed('correction', (_, b) => b.correction),
  fixed('alpha', (_, b) => b.alpha),
  fixed('seed', (_, b) => b.seed),
  fixed('resamples', (_, b) => b.resamples),
];

/**
 * Columns of one method (from the board's `methods`): `rank_<key>`, `<key>`, `<key>_ci_low`,
 * `<key>_ci_high`, `rank_<key>_best`, `rank_<key>_worst`, and for clustered methods
 * `cluster_<key>` and `cluster_test_<key>` (the test behind those clusters).
 */
function methodColumns(m: Leaderboard['methods'][number]): Column[] {
  const v = (s: Leaderboard['systems'][number]) => s.values.find((x) => x.method === m.key);
  const cols: Column[] = [
    fixed(`rank_${m.key}`, (s) => v(s)?.rank ?? null),
    fixed(m.key, (s) => v(s)?.value ?? null),
    fixed(`${m.key}_ci_low`, (s) => v(s)?.interval?.low ?? null),
    fixed(`${m.key}_ci_high`, (s) => v(s)?.interval?.high ?? null),
    fixed(`rank_${m.key}_best`, (s) => v(s)?.rankInterval.best ?? null),
    fixed(`rank_${m.key}_worst`, (s) => v(s)?.rankInterval.worst ?? null),
  ];
  if (m.clusters) cols.push(fixed(`cluster_${m.key}`, (s) => v(s)?.cluster ?? null), fixed(`cluster_test_${m.key}`, () => m.test));
  return cols;
}

/** Columns of a board's `leaderboard.csv`: who, then every method of `board.methods`, then details and settings. */
export function leaderboardColumns(board: Pick<Leaderboard, 'methods'>): string[] {
  return [...SYSTEM_COLUMNS, ...board.methods.flatMap(methodColumns), ...DETAIL_COLUMNS].map((c) => c.name);
}

const cell = (x: Cell): string | number => (x === null ? '' : typeof x === 'boolean' ? String(x) : x);

/** `leaderboard.csv`: one row per system in leaderboard order; numbers as JavaScript prints them (the JSON's digits), empty for null. */
export function leaderboardCsv(board: Leaderboard): string {
  const columns = [...SYSTEM_COLUMNS, ...board.methods.flatMap(methodColumns), ...DETAIL_COLUMNS];
  let out = csvRow(columns.map((c) => c.name));
  for (const s of board.systems) out += csvRow(columns.map((c) => cell(c.cell(s, board))));
  return out;
}
