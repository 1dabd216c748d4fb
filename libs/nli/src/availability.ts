import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { labelIndex } from './labels';
import { MODEL_FILES } from './manifest';

/** Whether NLI scores can be computed with a model directory, and if not, why. */
export interface NliAvailability {
  available: boolean;
  reason?: string;
}

/** The command that fetches a model into `models/NAME/`. */
export function fetchCommand(name: string): string {
  return `npm run -s podium -- models fetch ${name}`;
}

/**
 * Cheap check (no hashing) that a model directory holds the three files and a 3-way NLI
 * `id2label`. When not, `reason` names the command that fetches the model; callers must
 * then report NLI as unavailable, never substitute a score. {@link loadNliModel} still
 * verifies checksums before use.
 *
 * @example nliAvailability('models/nli-deberta-v3-xsmall')
 * // { available: false, reason: "NLI model 'nli-deberta-v3-xsmall' is not present …: npm run -s podium -- models fetch nli-deberta-v3-xsmall" }
 */
export function nliAvailability(modelDir: string): NliAvailability {
  const dir = resolve(modelDir);
  const name = basename(dir);
  const missing = MODEL_FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    const what = missing.length === MODEL_FILES.length ? `is not present in ${dir}` : `lacks ${missing.join(', ')} in ${dir}`;
    return { available: false, reason: `NLI model '${name}' ${what}; fetch it with: ${fetchCommand(name)}` };
  }
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { id2label?: Record<string, unknown> };
    labelIndex(config.id2label);
  } catch (err) {
    return { available: false, reason: `NLI model '${name}' is unusable: ${(err as Error).message}` };
  }
  return { available: true };
}
