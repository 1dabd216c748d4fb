import type { MetricConfig, TaskKindName } from '@podium/contracts';
import { metricDefinition } from '@podium/metrics';
import type { PairScorer } from '@podium/robustness';
import { MetricUnavailableError, runMetrics, type EmbeddingScorer, type NliScorer, type ScoringInstance } from '../metrics/metric-runner';

/**
 * Adapts a task's configured metric to the preference test's scorer through the worker's own
 * metric runner, so a robustness report scores exactly as submissions are scored (same
 * options, same signature, the NLI model the worker already holds). Each pair becomes one
 * instance whose source and only reference are both the anchor: in `ref` mode the anchor is
 * the reference, in `src` mode the source, and a metric configured in either direction
 * compares the hypothesis with it.
 */
export function metricPairScorer(config: MetricConfig, kind: TaskKindName, nli: NliScorer | null, embeddings: EmbeddingScorer | null = null): PairScorer {
  const definition = metricDefinition(config.name);
  if (!definition) throw new MetricUnavailableError(`unknown metric '${config.name}'`);
  const { higherIsBetter } = definition;
  return async (anchors, hyps) => {
    const instances: ScoringInstance[] = anchors.map((anchor, i) => {
      const output = hyps[i];
      if (output === undefined) throw new Error(`${anchors.length} anchors but only ${hyps.length} hypotheses to score against them`);
      return { source: anchor, references: [anchor], output };
    });
    const [result] = await runMetrics([config], kind, instances, nli, undefined, embeddings);
    if (!result) throw new Error(`scoring with '${config.key}' returned no result`);
    return { values: result.instances, signature: result.sentenceSignature, higherIsBetter };
  };
}
