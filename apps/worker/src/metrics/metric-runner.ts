import { metricConfigListSchema, type MetricConfig, type TaskKindName } from '@podium/contracts';
import { isMetricName, metricPlugin, scoreWithFlatStatsInSlices, type StatsMatrix } from '@podium/metrics';

/** One instance as the worker scores it: the system output, the source and its references. */
export interface ScoringInstance {
  /** '' when none of the task's metrics reads sources (scoring then does not read them: `readsSources`). */
  source: string;
  references: string[];
  output: string;
}

export interface MetricResult {
  key: string;
  signature: string;
  sentenceSignature: string;
  corpus: number;
  instances: number[];
  /**
   * Per-instance sufficient statistics of a corpus metric (BLEU, chrF, TER: the rows its
   * instance and corpus scores came from), stored with the scores so the leaderboard resamples
   * without retokenising, row-major in one array (`data[i * width + j]`); absent for
   * sentence-level metrics.
   */
  stats?: StatsMatrix;
}

/**
 * Scores a whole submission with a model: the runtime of the `model` capability (the NLI
 * metric), injected by the worker (the NLI adapter); the metric's definition is in @podium/metrics.
 */
export interface NliScorer {
  score(config: MetricConfig, taskKind: TaskKindName, instances: ScoringInstance[], onProgress: (done: number) => void): Promise<MetricResult>;
}

/**
 * Scores a whole submission with a metric of capability `embedding` (BERTScore, MoverScore, …):
 * the host runs the text encoder (@podium/embeddings) and the plugin computes from its vectors.
 */
export interface EmbeddingScorer {
  score(config: MetricConfig, instances: ScoringInstance[], onProgress: (done: number) => void): Promise<MetricResult>;
}

/**
 * Whether any of a task's metrics reads the sources (model and embedding metrics may; BLEU,
 * chrF, TER and ROUGE never do): when none does, scoring does not read them. An unparsable
 * configuration reads them (it fails later with its own message).
 */
export function readsSources(metrics: unknown): boolean {
  const parsed = metricConfigListSchema.safeParse(metrics);
  if (!parsed.success) return true;
  return parsed.data.some((m) => {
    const capability = metricPlugin(m.name)?.capability;
    return capability !== 'statistics' && capability !== 'instance' && capability !== 'derived';
  });
}

/** Instances a classical metric scores between two turns of the event loop (2,000 of TER: tens of milliseconds). */
export const SCORING_SLICE = 2_000;

/** Resolves on the event loop's next turn, after the timers and I/O due (lease renewals among them). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A metric that cannot run (missing model, bad option): the submission fails with this reason. */
export class MetricUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricUnavailableError';
  }
}

/**
 * Reference streams in sacreBLEU's layout (streams[k][i]). Instances with fewer references
 * than the most have their first reference repeated: every classical metric here takes the
 * best reference (BLEU clips by the maximum count and picks the closest length), so a repeated
 * reference changes no score.
 */
export function referenceStreams(instances: readonly ScoringInstance[]): string[][] {
  const width = Math.max(1, ...instances.map((i) => i.references.length));
  return Array.from({ length: width }, (_, k) => instances.map((i) => i.references[k] ?? i.references[0] ?? ''));
}

function classicalOptions(options: MetricConfig['options']): Record<string, string | number | boolean> {
  return { ...options };
}

/** Runs every configured metric over the instances of one submission, in configuration order. */
export async function runMetrics(
  metrics: readonly MetricConfig[],
  taskKind: TaskKindName,
  instances: ScoringInstance[],
  nli: NliScorer | null,
  onProgress: (done: number) => void = () => undefined,
  embeddings: EmbeddingScorer | null = null,
): Promise<MetricResult[]> {
  const results: MetricResult[] = [];
  const hyps = instances.map((i) => i.output);
  const refs = referenceStreams(instances);
  for (const config of metrics) {
    const plugin = metricPlugin(config.name);
    if (!plugin) throw new MetricUnavailableError(`unknown metric '${config.name}'`);
    if (plugin.capability === 'model') {
      if (!nli) throw new MetricUnavailableError(`metric '${config.key}' needs ${plugin.requirement}, and this worker has none`);
      results.push(await nli.score(config, taskKind, instances, onProgress));
      continue;
    }
    if (plugin.capability === 'embedding') {
      if (!embeddings) throw new MetricUnavailableError(`metric '${config.key}' needs ${plugin.requirement}, and this worker has none`);
      results.push(await embeddings.score(config, instances, onProgress));
      continue;
    }
    if (plugin.capability === 'derived' || !isMetricName(config.name)) throw new MetricUnavailableError(`metric '${config.key}' (${config.name}) is not scored from texts`);
    // In slices, the event loop free between them: one metric over 10⁵ instances runs for seconds,
    // longer than a lease lives (8 s) on a loaded machine, and leases are renewed on this loop
    // (bench:platform at 100 × 100,000 had a submission fail after its worker's own leases lapsed).
    const r = await scoreWithFlatStatsInSlices(config.name, classicalOptions(config.options), hyps, refs, nextTurn, SCORING_SLICE, onProgress);
    results.push({
      key: config.key, signature: r.signature, sentenceSignature: r.sentenceSignature, corpus: r.corpus, instances: r.instances,
      // Only statistics metrics have additive rows the leaderboard resamples.
      ...(plugin.capability === 'statistics' ? { stats: r.stats } : {}),
    });
  }
  return results;
}
