// `podium models check` through the real, compiled CLI on SICK (PODIUM_DATA_MIRROR) and the
// committed test model. The numbers are the test model's (a hand-written closed-form model, not
// trained): they say nothing about any real NLI model.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledApp } from '../../../../test/support/compiled-app';
import { TEST_DATA_MIRROR as TEST_MIRROR } from '../../../../test/support/test-data';

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '../../../..');
const MODELS = join(ROOT, 'models');

interface Report {
  model: string;
  id2label: Record<string, string>;
  data: { name: string; split: string; pairs: number; licence: string };
  accuracy: number;
  confusion: { classes: string[]; counts: number[][] };
  labelOrder: { consistent: boolean; supportedId2label: Record<string, string>; supportedAccuracy: number; warning: string | null };
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [compiledApp('apps/cli/src/main.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, PODIUM_DATA_MIRROR: TEST_MIRROR, PODIUM_CACHE: cache } },
      (err, stdout, stderr) => res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const cache = mkdtempSync(join(tmpdir(), 'podium-check-cache-'));

/** A models folder holding a copy of the test model whose config.json id2label is permuted (entailment ↔ contradiction), with a manifest that agrees with the copy. */
function permutedModelsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'podium-check-models-'));
  const name = 'test-nli-permuted';
  mkdirSync(join(dir, name));
  for (const f of ['model.onnx', 'tokenizer.json']) copyFileSync(join(MODELS, 'test-nli-tiny', f), join(dir, name, f));
  const config = JSON.parse(readFileSync(join(MODELS, 'test-nli-tiny', 'config.json'), 'utf8')) as Record<string, unknown>;
  // the test model's outputs are 0 contradiction, 1 entailment, 2 neutral; the copy claims 0 entailment, 1 contradiction
  config['id2label'] = { 0: 'entailment', 1: 'contradiction', 2: 'neutral' };
  config['label2id'] = { entailment: 0, contradiction: 1, neutral: 2 };
  const text = JSON.stringify(config, null, 2);
  writeFileSync(join(dir, name, 'config.json'), text);
  const manifest = JSON.parse(readFileSync(join(MODELS, 'manifest.json'), 'utf8')) as { models: Record<string, { labels: string[]; files: Record<string, { sha256: string | null }> }> };
  const entry = structuredClone(manifest.models['test-nli-tiny']);
  if (!entry) throw new Error('manifest.json lacks test-nli-tiny');
  entry.labels = ['entailment', 'contradiction', 'neutral'];
  const configFile = entry.files['config.json'];
  if (configFile) configFile.sha256 = createHash('sha256').update(text).digest('hex');
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, models: { [name]: entry } }, null, 2));
  return dir;
}

describe('podium models check', () => {
  it("runs the test model over SICK's TEST split and prints accuracy and the confusion matrix; its label order holds", async () => {
    const r = await cli(['models', 'check', 'test-nli-tiny']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.data).toMatchObject({ name: 'sick', split: 'TEST', pairs: 4906 });
    expect(report.data.licence).toMatch(/^CC BY-NC-SA 3\.0/);
    expect(report.confusion.classes).toEqual(['entailment', 'neutral', 'contradiction']);
    const counts = report.confusion.counts;
    expect(counts.flat().reduce((a, b) => a + b, 0)).toBe(4906);
    // accuracy is the diagonal's share, by definition
    expect(report.accuracy).toBeCloseTo(((counts[0]?.[0] ?? 0) + (counts[1]?.[1] ?? 0) + (counts[2]?.[2] ?? 0)) / 4906, 12);
    expect(report.labelOrder).toMatchObject({ consistent: true, warning: null, supportedId2label: report.id2label });
    // the matrix, printed for people on stderr
    expect(r.stderr).toMatch(/gold \\ predicted +entailment +neutral +contradiction/);
    expect(r.stderr).toContain(`entailment${' '.repeat(18 - 'entailment'.length)}${String(counts[0]?.[0]).padStart(14)}`);
  });

  it("flags a copy whose config.json permutes the labels, and names the order the data supports (the original's)", async () => {
    const dir = permutedModelsDir();
    const r = await cli(['models', 'check', 'test-nli-permuted', '--models-dir', dir, '--split', 'TRIAL']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.id2label).toEqual({ 0: 'entailment', 1: 'contradiction', 2: 'neutral' });
    expect(report.labelOrder.consistent).toBe(false);
    expect(report.labelOrder.supportedId2label).toEqual({ 0: 'contradiction', 1: 'entailment', 2: 'neutral' });
    expect(report.labelOrder.supportedAccuracy).toBeGreaterThan(report.accuracy);
    expect(report.labelOrder.warning).toMatch(/contradicts config.json's label order/);
    expect(r.stderr).toMatch(/WARNING/);
  });

  it('refuses an unknown model, split or limit with a one-line error', async () => {
    expect((await cli(['models', 'check', 'no-such-model'])).stderr).toMatch(/unknown model 'no-such-model'/);
    expect((await cli(['models', 'check', 'test-nli-tiny', '--split', 'DEV'])).stderr).toMatch(/no pairs in split 'DEV' \(splits: TRAIN, TRIAL, TEST, or all\)/);
    expect((await cli(['models', 'check', 'test-nli-tiny', '--limit', '0'])).stderr).toMatch(/--limit must be a positive integer/);
  });
});
