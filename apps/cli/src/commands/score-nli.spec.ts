/**
 * @jest-environment <rootDir>/../../libs/nli/jest-environment.js
 */
// onnxruntime-node needs the host's typed arrays inside Jest: see libs/nli/jest-environment.js.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { score } from '@podium/metrics';
import { CliError } from '../cli-error';
import { runNliScore } from './score-nli';
import { compiledApp } from '../../../../test/support/compiled-app';
import { defined } from '../../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const MODEL = resolve(__dirname, '../../../../models/test-nli-tiny');

/** Expected probabilities from the test model's closed form (models/make-test-model.ts). */
function closedForm(r: number, neg: number, num: number) {
  const c = 4 * neg + 4 * num - 1.5;
  const e = 4 * r - 2 * neg - 2 * num - 2;
  const n = -2 * r + 1;
  const z = Math.exp(c) + Math.exp(e) + Math.exp(n);
  return { e: Math.exp(e) / z, n: Math.exp(n) / z, c: Math.exp(c) / z };
}

const readLines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

/** Writes the hypothesis and reference lines to files; returns their paths. */
function files(lines: { hyp: string[]; ref: string[] }): { hyp: string; ref: string } {
  const dir = mkdtempSync(join(tmpdir(), 'podium-cli-nli-'));
  const write = (name: string, ls: string[]) => {
    const file = join(dir, `${name}.txt`);
    writeFileSync(file, ls.join('\n') + '\n');
    return file;
  };
  return { hyp: write('hyp', lines.hyp), ref: write('ref', lines.ref) };
}

interface ScoreJson {
  metric: string;
  signature: string;
  corpus: number;
  instances: number[];
}

describe('podium score --metric nli (runNliScore)', () => {
  const f = files({
    hyp: ['The cat sat on the mat.', 'The meeting is at 7 pm.', 'The cat did not sit on the mat.'],
    ref: ['The cat sat on the mat.', 'The meeting is at 5 pm.', 'The cat sat on the mat.'],
  });

  it('scores with the MT defaults (e, <->) and ranks the faithful hypothesis above number and negation errors', async () => {
    const r = (await runNliScore(['--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref])) as ScoreJson;
    expect(r.metric).toBe('nli');
    expect(r.signature).toMatch(/^nli\|model:test-nli-tiny@3e4907effc5a\|formula:e\|dir:<->\|refs:max\|long:truncate\|ep:cpu\|version:/);
    // identical: r = 1 both ways
    expect(r.instances[0]).toBeCloseTo(closedForm(1, 0, 0).e, 5);
    // 7 vs 5 pm: r = 5/6 and a new number in each direction
    expect(r.instances[1]).toBeCloseTo(closedForm(5 / 6, 0, 1).e, 5);
    // negation: ref->hyp r = 4/6 (did, sit new; "not" is no content), ref<-hyp r = 4/5 (sat absent); neg = 1 both ways
    const fwd = closedForm(4 / 6, 1, 0).e;
    const bwd = closedForm(4 / 5, 1, 0).e;
    expect(r.instances[2]).toBeCloseTo((fwd + bwd) / 2, 5);
    const [identical, number, negation] = r.instances;
    expect(identical).toBeGreaterThan(defined(number));
    expect(identical).toBeGreaterThan(defined(negation));
    expect(r.corpus).toBeCloseTo(r.instances.reduce((a, b) => a + b, 0) / 3, 12);
  });

  it('takes formula, direction and batch size flags', async () => {
    const r = (await runNliScore([
      '--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref,
      '--formula=-c', '--direction', 'ref->hyp', '--batch-size', '1',
    ])) as ScoreJson;
    expect(r.signature).toContain('|formula:-c|dir:->|');
    expect(r.instances[1]).toBeCloseTo(-closedForm(5 / 6, 0, 1).c, 5);
  });

  it('takes values beginning with - as separate arguments (--formula -c, --direction ->) and word aliases', async () => {
    const base = ['--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref];
    const arrow = (await runNliScore([...base, '--formula', '-c', '--direction', '->'])) as ScoreJson;
    expect(arrow.signature).toContain('|formula:-c|dir:->|');
    const word = (await runNliScore([...base, '--formula', '-c', '--direction', 'ref2hyp'])) as ScoreJson;
    expect(word.instances).toEqual(arrow.instances);
    expect(((await runNliScore([...base, '--direction', 'hyp2ref'])) as ScoreJson).signature).toContain('|dir:<-|');
    expect(((await runNliScore([...base, '--direction', 'both'])) as ScoreJson).signature).toContain('|dir:<->|');
  });

  it('scores reference-free with --src and the summarisation default -c src->hyp', async () => {
    const r = (await runNliScore(['--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--src', f.ref, '--task', 'summarization'])) as ScoreJson;
    expect(r.signature).toContain('|formula:-c|dir:src->|refs:none|');
    expect(r.instances[0]).toBeCloseTo(-closedForm(1, 0, 0).c, 5);
  });

  it('refuses with the fetch command when the model is not present', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'podium-cli-nli-')), 'nli-deberta-v3-xsmall');
    const run = runNliScore(['--metric', 'nli', '--nli-model', missing, '--hyp', f.hyp, '--ref', f.ref]);
    await expect(run).rejects.toThrow(CliError);
    await expect(runNliScore(['--metric', 'nli', '--nli-model', missing, '--hyp', f.hyp, '--ref', f.ref])).rejects.toThrow(
      'npm run -s podium -- models fetch nli-deberta-v3-xsmall',
    );
  });

  it('rejects bad flags with one-line user errors', async () => {
    const base = ['--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp];
    await expect(runNliScore(base)).rejects.toThrow('give --ref FILE');
    await expect(runNliScore([...base, '--ref', f.ref, '--formula', 'x'])).rejects.toThrow('--formula must be one of');
    await expect(runNliScore([...base, '--ref', f.ref, '--direction', 'src->hyp'])).rejects.toThrow('needs --src');
    await expect(runNliScore([...base, '--ref', f.ref, '--batch-size', '0'])).rejects.toThrow('--batch-size must be a positive integer');
  });
});

describe('podium score --metric combined (runNliScore)', () => {
  it('combines min–max scaled NLI and chrF instance scores with weight w', async () => {
    const f = files({
      hyp: ['The cat sat on the mat.', 'The meeting is at 7 pm.', 'The dog ran in the park.'],
      ref: ['The cat sat on the mat.', 'The meeting is at 5 pm.', 'The cat sat in the garden.'],
    });
    const nli = (await runNliScore(['--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref])) as ScoreJson;
    const c = (await runNliScore([
      '--metric', 'combined', '--nli-model', MODEL, '--with', 'chrf', '--weight', '0.2', '--hyp', f.hyp, '--ref', f.ref,
    ])) as ScoreJson;
    expect(c.metric).toBe('combined');
    expect(c.signature).toMatch(/^combined\|nli:\(nli\|.*\)\|with:\(chrf\|.*\)\|w:0\.2\|M-dir:higher\|scale:given-minmax\|N:\[.*\]\|M:\[.*\]\|n:3$/);
    // The first hypothesis equals its reference: NLI and chrF are both at their maxima → C = 1.
    expect(c.instances[0]).toBeCloseTo(1, 12);
    // Recomputed by hand from the two component runs: C = .2·minmax(NLI) + .8·minmax(chrF).
    const chrf = score('chrf', {}, readLines(f.hyp), [readLines(f.ref)]).instances;
    const scaled = (xs: number[]) => xs.map((x) => (x - Math.min(...xs)) / (Math.max(...xs) - Math.min(...xs)));
    const [n, m] = [scaled(nli.instances), scaled(chrf)];
    for (let i = 0; i < 3; i++) expect(c.instances[i]).toBeCloseTo(0.2 * defined(n[i]) + 0.8 * defined(m[i]), 10);
    expect(c.corpus).toBeCloseTo(c.instances.reduce((a, b) => a + b, 0) / 3, 12);
  });

  it('requires --with naming a classical metric', async () => {
    const f = files({ hyp: ['a'], ref: ['a'] });
    await expect(runNliScore(['--metric', 'combined', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref])).rejects.toThrow(
      '--metric combined needs --with METRIC',
    );
  });
});

describe('podium score --metric nli through the real CLI', () => {
  const ROOT = resolve(__dirname, '../../../..');
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((res) =>
      execFile(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: ROOT }, (err, stdout, stderr) =>
        res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  const f = files({ hyp: ['The cat sat on the mat.', 'The meeting is at 7 pm.'], ref: ['The cat sat on the mat.', 'The meeting is at 5 pm.'] });

  it('prints the metric JSON shape on stdout and the provider on stderr', async () => {
    const r = await run(['score', '--metric', 'nli', '--nli-model', MODEL, '--hyp', f.hyp, '--ref', f.ref]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['metric', 'signature', 'sentenceSignature', 'corpus', 'instances']);
    expect(out.instances[0]).toBeCloseTo(closedForm(1, 0, 0).e, 5);
    expect(r.stderr).toContain('on cpu');
  }, 60_000);

  it('exits 2 naming the fetch command when no model is present, printing no score', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'podium-cli-nli-')), 'nli-deberta-v3-xsmall');
    const r = await run(['score', '--metric', 'nli', '--nli-model', missing, '--hyp', f.hyp, '--ref', f.ref]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('fetch it with: npm run -s podium -- models fetch nli-deberta-v3-xsmall');
  }, 60_000);
});
