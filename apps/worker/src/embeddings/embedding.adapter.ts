import { Logger } from '@nestjs/common';
import path from 'node:path';
import type { WorkerConfig } from '@podium/config';
import type { MetricConfig } from '@podium/contracts';
import { dataSourceFromEnv, type DataOptions } from '@podium/datasets';
import { encoderAvailability, loadEncoder, scoreEmbedding, withHostFiles, type Encoder } from '@podium/embeddings';
import { isEmbeddingPlugin, MetricInputError, metricPlugin, parseOptionsWith } from '@podium/metrics';
import { MetricUnavailableError, type EmbeddingScorer, type MetricResult, type ScoringInstance } from '../metrics/metric-runner';

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Scores every `embedding` metric in the worker, whatever the plugin: the task's `model`
 * option (else PODIUM_EMBEDDING_MODEL) names a folder under the models directory; each encoder
 * is loaded once per process (checksums verified) and kept. A missing encoder or baseline file
 * fails the metric with the command or data set that provides it: never a substitute score.
 */
export class WorkerEmbeddingScorer implements EmbeddingScorer {
  private readonly log = new Logger('embeddings');
  private readonly encoders = new Map<string, Promise<Encoder>>();

  constructor(
    private readonly config: Pick<WorkerConfig, 'PODIUM_EMBEDDING_MODEL' | 'PODIUM_EMBEDDING_PROVIDER' | 'PODIUM_EMBEDDING_BATCH_SIZE' | 'PODIUM_NLI_THREADS'>,
    private readonly modelsDir: string,
    private readonly dataOptions: DataOptions = { source: dataSourceFromEnv() },
  ) {}

  /** Loads (once) and keeps encoder `name`. */
  encoder(name: string): Promise<Encoder> {
    let e = this.encoders.get(name);
    if (!e) {
      if (!MODEL_NAME.test(name)) throw new MetricUnavailableError(`'${name}' is not a valid model name (letters, digits, . _ - only)`);
      const dir = path.join(this.modelsDir, name);
      const availability = encoderAvailability(dir);
      if (!availability.available) throw new MetricUnavailableError(availability.reason ?? `text encoder '${name}' is unavailable`);
      e = loadEncoder(dir, {
        provider: this.config.PODIUM_EMBEDDING_PROVIDER,
        intraOpThreads: this.config.PODIUM_NLI_THREADS || undefined,
        manifestPath: path.join(this.modelsDir, 'manifest.json'),
        log: (line) => this.log.log(line),
      });
      e.catch(() => this.encoders.delete(name));
      this.encoders.set(name, e);
    }
    return e;
  }

  async score(config: MetricConfig, instances: ScoringInstance[], onProgress: (done: number) => void): Promise<MetricResult> {
    const plugin = metricPlugin(config.name);
    if (!plugin || !isEmbeddingPlugin(plugin)) throw new MetricUnavailableError(`metric '${config.key}' (${config.name}) is not an embedding metric`);
    let options: Record<string, unknown>;
    try {
      options = parseOptionsWith(plugin.definition, config.options);
    } catch (e) {
      throw e instanceof MetricInputError ? new MetricUnavailableError(`invalid ${config.name} options: ${e.message}`) : e;
    }
    const { model, ...metricOptions } = options;
    const name = typeof model === 'string' ? model : this.config.PODIUM_EMBEDDING_MODEL;
    const encoder = await this.encoder(name);
    let withFiles: Record<string, unknown>;
    try {
      withFiles = await withHostFiles(plugin, { ...metricOptions, ...(typeof model === 'string' ? { model } : {}) }, encoder.identity, this.dataOptions);
    } catch (e) {
      throw new MetricUnavailableError(`metric '${config.key}': ${(e as Error).message}`);
    }
    let reported = 0;
    const r = await scoreEmbedding(
      plugin,
      encoder,
      { hyps: instances.map((i) => i.output), refs: instances.map((i) => i.references), sources: instances.map((i) => i.source) },
      withFiles,
      {
        batchSize: this.config.PODIUM_EMBEDDING_BATCH_SIZE,
        onProgress: (done) => {
          onProgress(done - reported);
          reported = done;
        },
      },
    );
    return { key: config.key, signature: r.signature, sentenceSignature: r.signature, corpus: r.corpus, instances: r.instances };
  }
}

/** The worker's embedding scorer over the models folder (PODIUM_MODELS_DIR, default the repository's models/). */
export function createEmbeddingScorer(config: WorkerConfig, modelsDir = config.PODIUM_MODELS_DIR ?? defaultModelsDir()): EmbeddingScorer {
  return new WorkerEmbeddingScorer(config, path.resolve(modelsDir));
}

function defaultModelsDir(): string {
  return path.resolve(__dirname, '..', '..', '..', '..', 'models');
}
