import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sha256File } from './manifest';
import { MANIFEST_PATH, TEST_MODEL_DIR } from './testing/test-model';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const ROOT = resolve(__dirname, '../../..');

describe('models/make-test-model.ts', () => {
  it('regenerates byte-identical files whose sha256 match the committed model and the manifest', async () => {
    const out = mkdtempSync(join(tmpdir(), 'podium-test-model-'));
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'models/make-test-model.ts', out], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'));
    const files = manifest.models['test-nli-tiny'].files as Record<string, { sha256: string }>;
    expect(Object.keys(files).sort()).toEqual(['config.json', 'model.onnx', 'tokenizer.json']);
    for (const [name, { sha256 }] of Object.entries(files)) {
      expect(await sha256File(join(out, name))).toBe(sha256);
      expect(await sha256File(join(TEST_MODEL_DIR, name))).toBe(sha256);
    }
  }, 60_000);
});
