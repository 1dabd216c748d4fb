import { Logger } from '@nestjs/common';
import path from 'node:path';
import type { WorkerConfig } from '@podium/config';
import type { MetricConfig, TaskKindName } from '@podium/contracts';
import { MetricInputError, validateMetricOptions } from '@podium/metrics';
import { nliOptionsSchema } from '@podium/metrics';
import { defaultNliOptions, loadNliModel, nliAvailability, scoreNli, type NliMetricOptions, type NliModel } from '@podium/nli';
import type { z } from 'zod';
import type { WorkerHealth } from '../health/health';
import { MetricUnavailableError, referenceStreams, type MetricResult, type NliScorer, type ScoringInstance } from '../metrics/metric-runner';


export function defaultModelsDir(): string {
  return path.resolve(__dirname, '..', '..', '..', '..', 'models');
}


/**
 * NLI options of a task's metric entry: `mode` ('ref' | 'src') picks the paper's default for
 * the task kind, and `formula`, `direction`, `refsAggregation`, `long` override it.
 */
export function nliOptionsFor(config: MetricConfig, kind: TaskKindName): NliMetricOptions {
  // The registry's schema (registered by @podium/nli) validates; the API already did at task creation.
  let o: z.infer<typeof nliOptionsSchema>;
  try {
    o = validateMetricOptions('nli', config.options);
  } catch (e) {
    throw e instanceof MetricInputError ? new MetricUnavailableError(`invalid NLI options: ${e.message}`) : e;
  }
  const mode = o.mode ?? (o.direction?.startsWith('src') ? 'src' : 'ref');
  const base = defaultNliOptions(kind, mode);
  return {
    ...base,
    formula: o.formula ?? base.formula,
    direction: o.direction ?? base.direction,
    refsAggregation: o.refsAggregation ?? base.refsAggregation,
    long: o.long ?? base.long,
  };
}

/**
 * Scores NLI metrics in the worker. Each model is loaded once per process, on first use, and
 * kept; a model that is not present fails the metric with the command that fetches it.
 */
export class WorkerNliScorer implements NliScorer {
  private readonly log = new Logger('nli');
  private readonly models = new Map<string, Promise<NliModel>>();

  constructor(
    private readonly config: WorkerConfig,
    private readonly modelsDir: string,
    private readonly health?: WorkerHealth,
  ) {}

  /** Loads (once) and keeps the model `name`; the provider it runs on goes to the health report. */
  model(name: string): Promise<NliModel> {
    let m = this.models.get(name);
    if (!m) {
      const dir = path.join(this.modelsDir, name);
      const availability = nliAvailability(dir);
      if (!availability.available) throw new MetricUnavailableError(availability.reason ?? `NLI model '${name}' is unavailable`);
      let fallbackReason: string | undefined;
      m = loadNliModel(dir, {
        provider: this.config.PODIUM_NLI_PROVIDER,
        intraOpThreads: this.config.PODIUM_NLI_THREADS || undefined,
        manifestPath: path.join(this.modelsDir, 'manifest.json'),
        log: (line) => {
          fallbackReason = /CUDA execution provider unavailable \((.*)\)/.exec(line)?.[1] ?? fallbackReason;
          this.log.log(line);
        },
      });
      m.then((model) => this.health?.recordNliProvider(name, model.executionProvider, fallbackReason)).catch(() => this.models.delete(name));
      this.models.set(name, m);
    }
    return m;
  }

  async score(config: MetricConfig, kind: TaskKindName, instances: ScoringInstance[], onProgress: (done: number) => void): Promise<MetricResult> {
    const modelName = typeof config.options['model'] === 'string' ? config.options['model'] : this.config.PODIUM_NLI_MODEL;
    const options = nliOptionsFor(config, kind);
    let model: NliModel;
    try {
      model = await this.model(modelName);
    } catch (e) {
      throw e instanceof MetricUnavailableError ? e : new MetricUnavailableError(`NLI model '${modelName}' could not be loaded: ${(e as Error).message}`);
    }
    let reported = 0;
    const hyps = instances.map((i) => i.output);
    const result = await scoreNli(
      model,
      { hyps, refStreams: referenceStreams(instances), sources: instances.map((i) => i.source) },
      {
        ...options,
        batchSize: this.config.PODIUM_NLI_BATCH_SIZE,
        onProgress: (done, total) => {
          const now = Math.floor((done / Math.max(1, total)) * instances.length);
          if (now > reported) {
            onProgress(now - reported);
            reported = now;
          }
        },
      },
    );
    if (reported < instances.length) onProgress(instances.length - reported);
    return { key: config.key, signature: result.signature, sentenceSignature: result.signature, corpus: result.corpus, instances: result.instances };
  }
}

export async function createNliScorer(config: WorkerConfig, health?: WorkerHealth): Promise<NliScorer> {
  const dir = config.PODIUM_MODELS_DIR ?? defaultModelsDir();
  const availability = nliAvailability(path.join(dir, config.PODIUM_NLI_MODEL));
  const scorer = new WorkerNliScorer(config, dir, health);
  const log = new Logger('nli');
  if (!availability.available) {
    log.log(`NLI metrics unavailable until a model is fetched: ${availability.reason}`);
  } else if (config.PODIUM_NLI_PROVIDER === 'cuda') {
    // A GPU worker loads its model at start: a pod without a working CUDA provider says so
    // (error log, /readyz) before it takes a job, not at its first NLI score.
    try {
      await scorer.model(config.PODIUM_NLI_MODEL);
    } catch (e) {
      log.error(`NLI model '${config.PODIUM_NLI_MODEL}' could not be loaded: ${(e as Error).message}`);
    }
  } else {
    log.log(`NLI model '${config.PODIUM_NLI_MODEL}' available in ${dir} (loaded on first use)`);
  }
  return scorer;
}
