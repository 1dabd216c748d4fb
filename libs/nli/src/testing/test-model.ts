// Test helpers: the committed test model and its documented closed form (models/make-test-model.ts).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The committed test model directory. */
export const TEST_MODEL_DIR = resolve(__dirname, '../../../../models/test-nli-tiny');
/** The repository's manifest. */
export const MANIFEST_PATH = resolve(__dirname, '../../../../models/manifest.json');

/**
 * Expected probabilities from the test model's closed form, given its three features:
 * logit_c = 4·neg + 4·num − 1.5, logit_e = 4·r − 2·neg − 2·num − 2, logit_n = −2·r + 1.
 */
export function closedForm(r: number, neg: 0 | 1, num: 0 | 1): { e: number; n: number; c: number } {
  const c = 4 * neg + 4 * num - 1.5;
  const e = 4 * r - 2 * neg - 2 * num - 2;
  const n = -2 * r + 1;
  const z = Math.exp(c) + Math.exp(e) + Math.exp(n);
  return { e: Math.exp(e) / z, n: Math.exp(n) / z, c: Math.exp(c) / z };
}

/** Copies the test model and the manifest into a fresh temp `models/` folder; returns both paths. */
export function copyTestModel(): { modelsDir: string; modelDir: string; manifestPath: string } {
  const modelsDir = mkdtempSync(join(tmpdir(), 'podium-nli-'));
  const modelDir = join(modelsDir, 'test-nli-tiny');
  cpSync(TEST_MODEL_DIR, modelDir, { recursive: true });
  cpSync(MANIFEST_PATH, join(modelsDir, 'manifest.json'));
  return { modelsDir, modelDir, manifestPath: join(modelsDir, 'manifest.json') };
}
