import { Inject, Injectable } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { encoderAvailability } from '@podium/embeddings';
import { metricPlugin } from '@podium/metrics';
import { nliAvailability, type NliAvailability } from '@podium/nli';
import path from 'node:path';
import { API_CONFIG } from '../common/tokens';

const TTL_MS = 5000;
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Whether the model a metric needs is present in the models folder (the worker's default, or
 * PODIUM_MODELS_DIR): the NLI model of a `model` metric, the text encoder of an `embedding`
 * metric. A cheap file check, remembered a few seconds. The reason names the command that
 * fetches the model; server paths are not shown to clients.
 */
@Injectable()
export class NliAvailabilityService {
  private readonly checked = new Map<string, { at: number; result: NliAvailability }>();
  private readonly checkedEncoders = new Map<string, { at: number; result: NliAvailability }>();

  constructor(@Inject(API_CONFIG) private readonly config: ApiConfig) {}

  /** The model a metric's options name, else PODIUM_NLI_MODEL. */
  modelFor(options: Record<string, unknown>): string {
    return typeof options['model'] === 'string' && options['model'] !== '' ? options['model'] : this.config.PODIUM_NLI_MODEL;
  }

  /** Availability of metric `name` with `options`: null for metrics computed from the texts alone. */
  forMetric(name: string, options: Record<string, unknown>, now = Date.now()): NliAvailability | null {
    const capability = metricPlugin(name)?.capability;
    if (capability === 'model') return this.availability(this.modelFor(options), now);
    if (capability === 'embedding') return this.encoder(typeof options['model'] === 'string' && options['model'] !== '' ? options['model'] : this.config.PODIUM_EMBEDDING_MODEL, now);
    return null;
  }

  /** Whether text encoder `model` is present. */
  encoder(model: string, now = Date.now()): NliAvailability {
    const hit = this.checkedEncoders.get(model);
    if (hit && now - hit.at < TTL_MS) return hit.result;
    let result: NliAvailability;
    if (!MODEL_NAME.test(model)) result = { available: false, reason: `'${model}' is not a valid model name (letters, digits, . _ - only)` };
    else {
      const dir = path.join(path.resolve(this.config.PODIUM_MODELS_DIR ?? 'models'), model);
      const r = encoderAvailability(dir);
      result = r.available ? r : { available: false, reason: (r.reason ?? `text encoder '${model}' is unavailable`).split(dir).join(`models/${model}`) };
    }
    this.checkedEncoders.set(model, { at: now, result });
    return result;
  }

  availability(model: string, now = Date.now()): NliAvailability {
    const hit = this.checked.get(model);
    if (hit && now - hit.at < TTL_MS) return hit.result;
    const result = this.check(model);
    this.checked.set(model, { at: now, result });
    return result;
  }

  private check(model: string): NliAvailability {
    if (!MODEL_NAME.test(model)) return { available: false, reason: `'${model}' is not a valid NLI model name (letters, digits, . _ - only)` };
    const modelsDir = path.resolve(this.config.PODIUM_MODELS_DIR ?? 'models');
    const dir = path.join(modelsDir, model);
    const r = nliAvailability(dir);
    return r.available ? r : { available: false, reason: (r.reason ?? `NLI model '${model}' is unavailable`).split(dir).join(`models/${model}`) };
  }
}
