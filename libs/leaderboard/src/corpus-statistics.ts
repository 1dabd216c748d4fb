// Per-instance sufficient statistics of a corpus-level metric (BLEU, chrF, TER), so the leaderboard
// can rank by the corpus score and resample it as sacreBLEU does: the ones the worker stored with
// the scores where their signature matches, otherwise recomputed from the outputs and references
// (scores migrated from the row layout have none until they are scored again).
import type { MetricConfig } from '@podium/contracts';
import type { ScoreRepository } from '@podium/db';
import { at } from '@podium/contracts';
import type { FlatCorpusStats } from './ranking.adapter';
import { getMetric, isMetricName, parseMetricOptions } from '@podium/metrics';

export interface CorpusStatistics {
  /**
   * One row-major array per system, as the ranking library reads them in place:
   * data[system][instance × width + j], systems in the order of the submission ids given,
   * instances in test-set order.
   */
  stats: FlatCorpusStats;
  corpusFromStats: (rows: number[][]) => number;
  signature: string;
  sentenceSignature: string;
  /**
   * Per system, its statistics summed over all instances where an analysis memo holds them and
   * `stats` leaves them out (an empty array); undefined where `stats` has them.
   */
  knownTotals?: readonly (ArrayLike<number> | undefined)[];
}

/** Per submission, the key of its stored statistics ({@link corpusStatisticsKeys}), and their width. */
export interface CorpusStatisticsKeys {
  width: number;
  /** `width:md5` of the stored bytes; null where they cannot be used (missing, other options or test set: {@link corpusStatistics} recomputes those from the texts). */
  keys: (string | null)[];
}

/**
 * What names each submission's statistics without reading them: the width and the MD5 of the
 * stored bytes where they are usable as {@link corpusStatistics} would use them (signature, test
 * set, rows). An analysis memo then knows a system's statistics by this key (issue #28).
 */
export async function corpusStatisticsKeys(
  scores: Pick<ScoreRepository, 'statisticsDigests' | 'testSetShape'>,
  config: MetricConfig,
  testSetId: string,
  submissionIds: string[],
): Promise<CorpusStatisticsKeys | null> {
  if (!corpusMetricOf(config)) return null;
  const digests = await scores.statisticsDigests(submissionIds, config.key);
  const shape = await scores.testSetShape(testSetId);
  const m = metricFor(config, shape.maxReferences);
  let width = 0;
  const keys = digests.map((d) => {
    if (!d || !servesTestSet(d, testSetId, m.sentenceSignature, shape.instances)) return null;
    width = d.width;
    return `${d.width}:${d.digest}`;
  });
  // one signature, one width; anything else is read in full
  return { width, keys: keys.map((key) => (key !== null && key.startsWith(`${width}:`) ? key : null)) };
}

/** The metric of a configuration when its corpus score comes from summed statistics; else null. */
export function corpusMetricOf(config: MetricConfig | undefined) {
  if (!config || !isMetricName(config.name)) return null;
  try {
    const m = getMetric(config.name, parseMetricOptions(config.name, config.options));
    return m.additiveStats ? m : null;
  } catch {
    return null;
  }
}

/** The metric of a corpus configuration, laid out for instances of up to `maxReferences` references (as the worker scores them). */
function metricFor(config: MetricConfig, maxReferences: number) {
  const name = config.name as Parameters<typeof getMetric>[0];
  return getMetric(name, parseMetricOptions(name, config.options), maxReferences);
}

/** Whether stored statistics are this test set's as the metric computes them now: its test set, the metric's sentence signature (options, references), one row per instance. */
function servesTestSet(stored: { testSetId: string; signature: string; rows: number }, testSetId: string, sentenceSignature: string, instances: number): boolean {
  return stored.testSetId === testSetId && stored.signature === sentenceSignature && stored.rows === instances;
}

/** Column sums of one system's flat statistics: the statistics of the whole test set. */
export function summedStats(data: ArrayLike<number>, width: number): number[] {
  // in a typed array, read unchecked: 10⁸ values at 100 × 100,000 (BLEU), where a checked read of a
  // number[] cost seconds; the same additions in the same order
  const sum = new Float64Array(width);
  const whole = data.length - (data.length % Math.max(1, width));
  for (let i = 0; i < whole; i += width) for (let j = 0; j < width; j++) sum[j] = (sum[j] as number) + (data[i + j] as number);
  for (let j = 0; j < data.length - whole; j++) sum[j] = (sum[j] as number) + (data[whole + j] as number);
  return Array.from(sum);
}

/**
 * Statistics of every submission on the test set, references laid out as the worker does
 * (instances with fewer references repeat their first: no classical score changes). Texts are
 * read only for submissions whose stored statistics are missing or of other options.
 */
export async function corpusStatistics(
  scores: Pick<ScoreRepository, 'alignedTexts' | 'testSetShape'> & Partial<Pick<ScoreRepository, 'sufficientStatistics'>>,
  config: MetricConfig,
  testSetId: string,
  submissionIds: string[],
): Promise<CorpusStatistics | null> {
  if (!corpusMetricOf(config)) return null;
  const stored = scores.sufficientStatistics ? await scores.sufficientStatistics(submissionIds, config.key) : [];
  const shape = await scores.testSetShape(testSetId);
  const m = metricFor(config, shape.maxReferences);
  const usable = (s: (typeof stored)[number] | undefined): s is NonNullable<(typeof stored)[number]> =>
    !!s && servesTestSet({ testSetId: s.testSetId, signature: s.signature, rows: s.stats.rows }, testSetId, m.sentenceSignature, shape.instances);
  // Missing, or stored for other options or another test set: recomputed from the texts.
  const recompute = submissionIds.filter((_, k) => !usable(stored[k]));
  const fromTexts = new Map<string, number[][]>();
  if (recompute.length > 0) {
    const { references, outputs } = await scores.alignedTexts(testSetId, recompute);
    const refsOf = references.map((r) => Array.from({ length: shape.maxReferences }, (_, k) => r[k] ?? r[0] ?? ''));
    recompute.forEach((id, j) => fromTexts.set(id, at(outputs, j).map((h, i) => m.stats(h, at(refsOf, i)))));
  }
  let width = 0;
  const data = submissionIds.map((id, k) => {
    const s = stored[k];
    if (usable(s)) {
      width = s.stats.width;
      return s.stats.data;
    }
    const rows = fromTexts.get(id);
    if (!rows) throw new Error(`corpus statistics: no outputs were read for submission '${id}'`);
    width = rows[0]?.length ?? width;
    return Float64Array.from(rows.flat());
  });
  return { stats: { width, data }, corpusFromStats: (rows) => m.corpusFromStats(rows), signature: m.signature, sentenceSignature: m.sentenceSignature };
}

/**
 * A submission's corpus scores on a part of the test set (a split phase, ADR 0014): corpus
 * metrics (BLEU, chrF, TER) recomputed from the per-instance statistics of those positions —
 * never an average of sentence scores —, other metrics the mean of their instance scores there
 * (as the worker computes their corpus score). Metrics with no score on the part are left out.
 */
export async function corpusScoresOnPart(
  scores: Pick<ScoreRepository, 'alignedTexts' | 'testSetShape' | 'sufficientStatistics' | 'column'>,
  configs: readonly MetricConfig[],
  testSetId: string,
  submissionId: string,
  stored: readonly { metric: string; value: number; signature: string }[],
  positions: readonly number[],
): Promise<{ metric: string; value: number; signature: string }[]> {
  const out = await Promise.all(
    stored.map(async (c) => {
      const config = configs.find((m) => m.key === c.metric);
      const stats = config ? await corpusStatistics(scores, config, testSetId, [submissionId]) : null;
      const data = stats?.stats.data[0];
      if (stats && data && positions.length > 0) {
        const width = stats.stats.width;
        const picked = new Float64Array(positions.length * width);
        positions.forEach((p, k) => {
          for (let j = 0; j < width; j++) picked[k * width + j] = data[p * width + j] ?? 0;
        });
        return { ...c, value: stats.corpusFromStats([summedStats(picked, width)]) };
      }
      const values = await scores.column(submissionId, c.metric);
      const picked = positions.map((p) => values[p] ?? Number.NaN).filter((v) => Number.isFinite(v));
      return picked.length > 0 ? { ...c, value: picked.reduce((a, b) => a + b, 0) / picked.length } : null;
    }),
  );
  return out.filter((c): c is NonNullable<typeof c> => c !== null);
}
