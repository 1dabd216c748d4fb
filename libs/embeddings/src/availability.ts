import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fetchCommand, MODEL_FILES } from '@podium/nli';

/** Whether a text encoder directory can be used, and if not, why. */
export interface EncoderAvailability {
  available: boolean;
  reason?: string;
}

/**
 * Cheap check (no hashing) that an encoder directory holds the three files and a config with
 * `num_hidden_layers` and `hidden_size`. When not, `reason` names the command that fetches the
 * model: callers report the metric unavailable, never a substitute score. {@link loadEncoder}
 * still verifies checksums before use.
 *
 * @example encoderAvailability('models/roberta-large')
 * // { available: false, reason: "text encoder 'roberta-large' is not present in …; fetch it with: npm run -s podium -- models fetch roberta-large" }
 */
export function encoderAvailability(modelDir: string): EncoderAvailability {
  const dir = resolve(modelDir);
  const name = basename(dir);
  const missing = MODEL_FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    const what = missing.length === MODEL_FILES.length ? `is not present in ${dir}` : `lacks ${missing.join(', ')} in ${dir}`;
    return { available: false, reason: `text encoder '${name}' ${what}; fetch it with: ${fetchCommand(name)}` };
  }
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { num_hidden_layers?: unknown; hidden_size?: unknown };
    if (typeof config.num_hidden_layers !== 'number' || typeof config.hidden_size !== 'number') throw new Error('config.json lacks num_hidden_layers or hidden_size');
  } catch (err) {
    return { available: false, reason: `text encoder '${name}' is unusable: ${(err as Error).message}` };
  }
  return { available: true };
}
