import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { getMetric, isMetricName, metricDefinition, METRIC_NAMES, MetricInputError, registeredMetrics } from '@podium/metrics';
import {
  analyseSystems,
  buildScoreTable,
  CLUSTER_DEFINITION,
  CORRECTIONS,
  isTestName,
  RANKING_METHODS,
  RankingInputError,
  SENTENCE_TESTS,
  TEST_LABELS,
  TEST_NAMES,
  type AnalyseOptions,
  type Analysis,
  type ScoreRow,
  type ScoreTable,
} from '@podium/ranking';
import { CsvSyntaxError, parseCsvRecords, type CsvRecord } from '@podium/contracts';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import type { CliCommand } from '../command';
import { readLines, readText } from '../io';

const METHOD_NAMES = RANKING_METHODS.map((m) => m.label).join(', ');

const USAGE = `usage: podium rank --scores FILE.csv|FILE.jsonl [options]
       podium rank --metric bleu|chrf|chrf++|ter --ref FILE (--hyp FILE… | --hyps-dir DIR) [options]

Ranks systems scored on the same instances (${METHOD_NAMES}),
runs paired tests on every pair with multiple-comparison correction, and prints clusters.
With --metric and text files, also the corpus score (sacreBLEU's, from summed sufficient
statistics) with sacreBLEU's paired bootstrap (paired-bs) and approximate randomisation
(paired-ar) on it: the main ranking for corpus-level metrics (\`main_aggregation: corpus\`).

  --scores FILE        CSV with header system,instance,score (quoted fields allowed), or JSONL
                       with the same keys (one object per line)
  --metric M           bleu | chrf | chrf++ | ter: score --hyp files against --ref (13a, defaults)
  --ref FILE           reference, one segment per line (repeat for several references)
  --hyp FILE           a system output (repeat); the system is the file name
  --hyps-dir DIR       every file in DIR is a system output
  --tokenize T         BLEU tokenizer (default 13a)
  --seed N             seed for every random step (default 12345)
  --resamples N        bootstrap resamples and randomisation trials (default: chosen so the
                       smallest corrected p is ≤ α/10: ⌈10·pairs/α⌉ rounded up to 1,000s)
  --correction C       ${CORRECTIONS.map((c) => c.key).join(' | ')} (default ${CORRECTIONS[0].key})
  --alpha A            significance level for clusters (default 0.05)
  --test T             one test to drive all clusters: ${SENTENCE_TESTS.join(' | ')}
                       (default: ttest for mean, mood for median, sign for BT, paired-bs for corpus;
                       bootstrap | ar drive the corpus clusters through paired-bs | paired-ar)
  --elo-orders N       random game orders averaged for Elo/TrueSkill (default 10)
  --scores-of M        the metric the --scores file holds (${registeredMetrics().map((d) => d.name).join(' | ')}):
                       its direction comes from the metric registry
  --lower-is-better    scores of a metric outside the registry are errors: lower ranks higher`;


/** `podium rank` output: the analysis plus what names its numbers. */
export type RankOutput = Analysis & {
  /** The ranking to read first: `corpus` for corpus-level metrics scored from text, else `mean`. */
  main_aggregation: 'corpus' | 'mean';
  /** Signatures of the corpus score and of the sentence scores behind mean/median/BT (text mode). */
  signatures?: { corpus: string; sentence: string };
  cluster_definition: string;
  test_labels: Record<string, string>;
};

/** Scores system files with a corpus-level metric: sentence scores and sufficient statistics. */
function scoreTexts(values: { metric?: string; ref?: string[]; hyp?: string[]; 'hyps-dir'?: string; tokenize?: string }) {
  const metric = String(values.metric); // the caller checked --metric; 'undefined' is refused below as before
  if (!isMetricName(metric)) throw new CliError(`unknown metric '${metric}' (expected ${METRIC_NAMES.join(', ')})`);
  let m;
  try {
    m = getMetric(metric, values.tokenize ? { tokenize: values.tokenize } : {}, (values.ref ?? []).length);
  } catch (err) {
    if (err instanceof MetricInputError) throw new CliError(err.message);
    throw err;
  }
  if (!m.additiveStats) throw new CliError(`--metric ${metric}: its corpus score is not a function of summed statistics; rank its instance scores with --scores`);
  const refFiles = values.ref ?? [];
  if (refFiles.length === 0) throw new CliError('at least one --ref FILE is required with --metric');
  const hypFiles = [...(values.hyp ?? [])];
  const dir = values['hyps-dir'];
  if (dir) for (const f of readdirSync(dir).sort()) if (statSync(join(dir, f)).isFile()) hypFiles.push(join(dir, f));
  if (hypFiles.length < 2) throw new CliError('give at least two system outputs (--hyp FILE… or --hyps-dir DIR)');
  const refs = refFiles.map((f) => readLines(f, 'reference'));
  const systems = hypFiles.map((f) => basename(f));
  if (new Set(systems).size !== systems.length) throw new CliError('system files must have distinct names');
  const stats = hypFiles.map((f) => {
    const hyps = readLines(f, 'hypothesis');
    refs.forEach((r, k) => {
      if (r.length !== hyps.length) throw new CliError(`reference file ${refFiles[k]} has ${r.length} lines but ${f} has ${hyps.length}`);
    });
    return hyps.map((h, i) => m.stats(h, refs.map((r) => r[i] ?? ''))); // every reference has hyps.length lines (checked above)
  });
  const table: ScoreTable = {
    systems,
    instances: (stats[0] ?? []).map((_, i) => String(i + 1).padStart(6, '0')),
    scores: stats.map((rows) => rows.map((row) => m.sentenceFromStats(row))),
    higherIsBetter: m.higherIsBetter,
  };
  return { table, corpus: { stats, corpusFromStats: (rows: number[][]) => m.corpusFromStats(rows) }, signatures: { corpus: m.signature, sentence: m.sentenceSignature } };
}

/** CSV records with their line numbers, in Podium's one dialect; a syntax error becomes a CliError. */
export function parseCsv(text: string): CsvRecord[] {
  try {
    return parseCsvRecords(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new CliError(err.message);
    throw err;
  }
}

function parseScore(raw: string, where: string): number {
  const s = raw.trim();
  const v = s === '' ? NaN : Number(s);
  if (!Number.isFinite(v)) throw new CliError(`${where}: score '${raw}' is not a finite number`);
  return v;
}

/** Reads `system,instance,score` rows from CSV text. */
export function rowsFromCsv(text: string, path: string): ScoreRow[] {
  let records: CsvRecord[];
  try {
    records = parseCsvRecords(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new CliError(`${path} ${err.message}`); // "<path> line N: …"
    throw err;
  }
  const [head, ...body] = records;
  if (!head) throw new CliError(`${path} is empty`);
  const header = head.fields.map((h) => h.trim());
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new CliError(`${path}: header must name columns system,instance,score (got ${header.join(',')})`);
    return i;
  };
  const [cs, ci, cv] = [col('system'), col('instance'), col('score')];
  const rows: ScoreRow[] = [];
  for (const { fields, line } of body) {
    if (fields.length !== header.length) throw new CliError(`${path} line ${line}: expected ${header.length} fields, got ${fields.length}`);
    const [system, instance, value] = [fields[cs], fields[ci], fields[cv]];
    // Every row has the header's field count (checked above) and the columns are in the header.
    if (system === undefined || instance === undefined || value === undefined) throw new CliError(`${path} line ${line}: missing fields`);
    rows.push({ system, instance, score: parseScore(value, `${path} line ${line}`) });
  }
  return rows;
}

/** Reads rows from JSONL: one object per line with string system/instance and numeric score. */
export function rowsFromJsonl(text: string, path: string): ScoreRow[] {
  const rows: ScoreRow[] = [];
  text.split('\n').forEach((raw, i) => {
    const lineText = raw.trim();
    if (lineText === '') return;
    const where = `${path} line ${i + 1}`;
    let obj: unknown;
    try {
      obj = JSON.parse(lineText);
    } catch {
      throw new CliError(`${where}: not valid JSON`);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new CliError(`${where}: expected an object with system, instance, score`);
    const o = obj as Record<string, unknown>;
    const name = (key: string): string => {
      const v = o[key];
      if (typeof v === 'string') return v;
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
      throw new CliError(`${where}: missing or non-string '${key}'`);
    };
    const score = o.score;
    const value = typeof score === 'number' ? score : typeof score === 'string' ? parseScore(score, where) : NaN;
    if (!Number.isFinite(value)) throw new CliError(`${where}: score ${JSON.stringify(score ?? null)} is not a finite number`);
    rows.push({ system: name('system'), instance: name('instance'), score: value });
  });
  if (rows.length === 0) throw new CliError(`${path} is empty`);
  return rows;
}

function intFlag(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new CliError(`--${name} must be an integer, got '${value}'`);
  const v = Number(value);
  if (v < min || !Number.isSafeInteger(v)) throw new CliError(`--${name} must be an integer ≥ ${min}, got '${value}'`);
  return v;
}

/** `podium rank`: the leaderboard of analyseSystems as JSON. */
export const rankCommand: CliCommand = {
  name: 'rank',
  summary: `rank systems (${METHOD_NAMES}) with paired tests and clusters`,
  usage: USAGE,
  async run(argv: string[]): Promise<RankOutput> {
    const values = parseFlags(argv, {
      scores: { type: 'string' },
      metric: { type: 'string' },
      ref: { type: 'string', multiple: true },
      hyp: { type: 'string', multiple: true },
      'hyps-dir': { type: 'string' },
      tokenize: { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
      correction: { type: 'string' },
      alpha: { type: 'string' },
      test: { type: 'string' },
      'elo-orders': { type: 'string' },
      'scores-of': { type: 'string' },
      'lower-is-better': { type: 'boolean' },
    });
    if (!values.scores && !values.metric) throw new CliError('--scores FILE (or --metric with --ref and --hyp files) is required');
    if (values.scores && values.metric) throw new CliError('give either --scores or --metric with text files, not both');
    const scoresOf = values['scores-of'] === undefined ? undefined : metricDefinition(values['scores-of']);
    if (values['scores-of'] !== undefined) {
      if (!values.scores) throw new CliError('--scores-of names the metric of a --scores file; with --metric the metric is known');
      if (!scoresOf) throw new CliError(`--scores-of: unknown metric '${values['scores-of']}' (registered: ${registeredMetrics().map((d) => d.name).join(', ')})`);
      if (values['lower-is-better']) throw new CliError(`give --scores-of or --lower-is-better, not both: ${scoresOf.name}'s direction comes from the registry`);
    }
    const seed = intFlag(values.seed, 'seed', 0);
    if (seed !== undefined && seed > 0xffffffff) throw new CliError('--seed must be below 2^32');
    const resamples = intFlag(values.resamples, 'resamples', 1);
    const eloOrders = intFlag(values['elo-orders'], 'elo-orders', 0);
    const correctionKey = values.correction ?? CORRECTIONS[0].key;
    const correction = CORRECTIONS.find((c) => c.key === correctionKey)?.key;
    if (correction === undefined) throw new CliError(`--correction must be one of ${CORRECTIONS.map((c) => c.key).join(', ')}, got '${correctionKey}'`);
    let alpha: number | undefined;
    if (values.alpha !== undefined) {
      alpha = Number(values.alpha);
      if (!(alpha > 0 && alpha < 1)) throw new CliError(`--alpha must be a number in (0, 1), got '${values.alpha}'`);
    }
    const test = values.test;
    if (test !== undefined && !isTestName(test)) throw new CliError(`--test must be one of ${TEST_NAMES.join(', ')}, got '${values.test}'`);
    const path = values.scores ?? String(values.metric);
    try {
      let table: ScoreTable;
      let corpus: AnalyseOptions['corpus'];
      let signatures: RankOutput['signatures'];
      if (values.scores) {
        const text = readText(values.scores, 'scores');
        const jsonl = /\.jsonl?$/i.test(values.scores) || text.trimStart().startsWith('{');
        table = buildScoreTable(jsonl ? rowsFromJsonl(text, values.scores) : rowsFromCsv(text, values.scores));
        // a registered metric's direction from the registry; otherwise what the caller says
        table.higherIsBetter = scoresOf ? scoresOf.higherIsBetter : !values['lower-is-better'];
      } else {
        ({ table, corpus, signatures } = scoreTexts(values));
      }
      const analysis = analyseSystems(table, { seed, resamples, correction, alpha, test, eloOrders, ...(corpus ? { corpus } : {}) });
      return {
        main_aggregation: corpus ? 'corpus' : 'mean',
        ...(signatures ? { signatures } : {}),
        cluster_definition: CLUSTER_DEFINITION,
        test_labels: Object.fromEntries(Object.entries(analysis.settings.cluster_tests).map(([agg, t]) => [agg, TEST_LABELS[t]])),
        ...analysis,
      };
    } catch (err) {
      if (err instanceof RankingInputError) throw new CliError(`${path}: ${err.message}`);
      throw err;
    }
  },
};
