// Per-instance sufficient statistics of a corpus-level metric (BLEU, chrF, TER), so the leaderboard
// can rank by the corpus score and resample it as sacreBLEU does: the ones the worker stored with
// the scores where their signature matches, otherwise recomputed from the outputs and references
// (scores migrated from the row layout have none until they are scored again).
import type { MetricConfig } from '@podium/contracts';
import type { ScoreRepository } from '@podium/db';
import { at } from './at';
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
    const m = getMetric(config.name, parseMetricOptions(config.name, config.options));
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
  scores: Pick<ScoreRepository, 'alignedTexts'> & Partial<Pick<ScoreRepository, 'sufficientStatistics'>>,
  config: MetricConfig,
  testSetId: string,
  submissionIds: string[],
): Promise<CorpusStatistics | null> {
  if (!corpusMetricOf(config)) return null;
  const stored = scores.sufficientStatistics ? await scores.sufficientStatistics(submissionIds, config.key) : [];
  const missing = submissionIds.filter((_, k) => !stored[k]);
  const { references, outputs } = await scores.alignedTexts(testSetId, missing);
  const width = Math.max(1, ...references.map((r) => r.length));
  const m = getMetric(config.name as Parameters<typeof getMetric>[0], parseMetricOptions(config.name as Parameters<typeof getMetric>[0], config.options), width);
  const usable = (s: (typeof stored)[number] | undefined): s is NonNullable<(typeof stored)[number]> => !!s && s.testSetId === testSetId && s.signature === m.sentenceSignature && s.stats.length === references.length;
  // Stored statistics of other options or another test set are recomputed as well.
  const recompute = submissionIds.filter((id, k) => !usable(stored[k]) && !missing.includes(id));
  const texts = recompute.length > 0 ? await scores.alignedTexts(testSetId, [...missing, ...recompute]) : { outputs };
  const refsOf = references.map((r) => Array.from({ length: width }, (_, k) => r[k] ?? r[0] ?? ''));
  const fromTexts = new Map([...missing, ...recompute].map((id, j) => [id, at(texts.outputs, j).map((h, i) => m.stats(h, at(refsOf, i)))]));
  const stats = submissionIds.map((id, k) => {
    const s = stored[k];
    if (usable(s)) return s.stats;
    const computed = fromTexts.get(id);
    if (!computed) throw new Error(`corpus statistics: no outputs were read for submission '${id}'`);
    return computed;
  });
  return { stats, corpusFromStats: (rows) => m.corpusFromStats(rows), signature: m.signature, sentenceSignature: m.sentenceSignature };
}
