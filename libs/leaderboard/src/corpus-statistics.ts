// Per-instance sufficient statistics of a corpus-level metric (BLEU, chrF, TER), recomputed from
// the stored outputs and references, so the leaderboard can rank by the corpus score and resample
// it as sacreBLEU does. Recomputed, not stored: the statistics are cheap next to the resampling.
import type { MetricConfig } from '@podium/contracts';
import type { ScoreRepository } from '@podium/db';
import { getMetric, isMetricName, parseMetricOptions } from '@podium/metrics';

export interface CorpusStatistics {
  /** stats[system][instance] in the order of the submission ids and test-set positions given. */
  stats: number[][][];
  corpusFromStats: (rows: number[][]) => number;
  signature: string;
  sentenceSignature: string;
}

/** The metric of a configuration when its corpus score comes from summed statistics; else null. */
export function corpusMetricOf(config: MetricConfig | undefined) {
  if (!config || !isMetricName(config.name)) return null;
  try {
    const m = getMetric(config.name, parseMetricOptions(config.name, config.options as Record<string, unknown>));
    return m.additiveStats ? m : null;
  } catch {
    return null;
  }
}

/**
 * Statistics of every submission on the test set, references laid out as the worker does
 * (instances with fewer references repeat their first: no classical score changes).
 */
export async function corpusStatistics(
  scores: Pick<ScoreRepository, 'alignedTexts'>,
  config: MetricConfig,
  testSetId: string,
  submissionIds: string[],
): Promise<CorpusStatistics | null> {
  if (!corpusMetricOf(config)) return null;
  const { references, outputs } = await scores.alignedTexts(testSetId, submissionIds);
  const width = Math.max(1, ...references.map((r) => r.length));
  const m = getMetric(config.name as Parameters<typeof getMetric>[0], parseMetricOptions(config.name as Parameters<typeof getMetric>[0], config.options as Record<string, unknown>), width);
  const refsOf = references.map((r) => Array.from({ length: width }, (_, k) => r[k] ?? r[0] ?? ''));
  const stats = outputs.map((hyps) => hyps.map((h, i) => m.stats(h, refsOf[i]!)));
  return { stats, corpusFromStats: (rows) => m.corpusFromStats(rows), signature: m.signature, sentenceSignature: m.sentenceSignature };
}
