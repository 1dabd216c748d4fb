import type { MetricConfig, TaskKindName } from '@podium/contracts';
import { isMetricName, metricInfo, parseMetricOptions } from '@podium/metrics';
import type { PairScorer } from '@podium/robustness';
import { MetricUnavailableError, runMetrics, type NliScorer, type ScoringInstance } from './metric-runner';

/**
 * Adapts a task's configured metric to the preference test's scorer through the worker's own
 * metric runner, so a robustness report scores exactly as submissions are scored (same
 * options, same signature, the NLI model the worker already holds). Each pair becomes one
 * instance whose source and only reference are both the anchor: in `ref` mode the anchor is
 * the reference, in `src` mode the source, and a metric configured in either direction
 * compares the hypothesis with it.
 */
export function metricPairScorer(config: MetricConfig, kind: TaskKindName, nli: NliScorer | null): PairScorer {
  let higherIsBetter = true; // NLI scores (entailment-based formulas) are higher-is-better
  if (config.name !== 'nli') {
    if (!isMetricName(config.name)) throw new MetricUnavailableError(`unknown metric '${config.name}'`);
    higherIsBetter = metricInfo(config.name, parseMetricOptions(config.name, config.options)).higherIsBetter;
  }
  return async (anchors, hyps) => {
    const instances: ScoringInstance[] = anchors.map((anchor, i) => ({ instanceId: String(i), source: anchor, references: [anchor], output: hyps[i]! }));
    const [result] = await runMetrics([config], kind, instances, nli);
    return { values: result!.instances, signature: result!.sentenceSignature, higherIsBetter };
  };
}
