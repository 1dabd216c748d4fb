/**
 * @jest-environment ../../libs/nli/jest-environment.js
 */
// The NLI case runs onnxruntime-node, whose typed arrays need the realm-sharing environment of libs/nli.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { score } from '@podium/metrics';
import type { MetricName } from '@podium/metrics';
import { parseMenliCsv, type MenliRow } from '@podium/robustness';
import { cachedMenliPath, suiteCsvPath, useTestDataEnv } from '../../../../test/support/test-data';
import { defined } from '../../../../test/support/defined';
import { CliError } from '../cli-error';
import { generateSuiteCommand } from './generate-suite.command';
import { findRepoRoot, resolveSuitePath, robustnessCommand } from './robustness.command';

interface RobustnessOutput {
  metric: string;
  signature: string;
  suite: string;
  mode: string;
  overall: { accuracy: number; ci: [number, number]; n: number; passed: number };
  phenomena: Record<string, { accuracy: number; n: number; passed: number }>;
  failingCount: number;
  failing?: { id: string; phenomenon: string; goodScore: number; badScore: number }[];
}

// Each case scores the 2,400-row built-in suite (several times in some) or fetches a data set:
// seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s default.
jest.setTimeout(120_000);

const run = async (...argv: string[]): Promise<RobustnessOutput> => (await robustnessCommand.run(argv)) as RobustnessOutput;
const root = findRepoRoot(__dirname);
// builtin: suites come through the dataset registry from the test mirror (PODIUM_DATA_MIRROR) into a cache of this process.
useTestDataEnv();
let suiteRows: MenliRow[];
beforeAll(async () => {
  suiteRows = parseMenliCsv(readFileSync(await suiteCsvPath('builtin:wmt20-de'), 'utf8'));
});

/** Pass counts per phenomenon computed straight from sentence scores, without the preference engine. */
function passCountsFromSentenceScores(metric: MetricName): Record<string, number> {
  const refs = suiteRows.map((r) => r.ref);
  const para = score(metric, {}, suiteRows.map((r) => r.hypPara), [refs]);
  const adv = score(metric, {}, suiteRows.map((r) => r.hypAdvBased), [refs]);
  const counts: Record<string, number> = {};
  suiteRows.forEach((r, i) => {
    const [p, a] = [defined(para.instances[i]), defined(adv.instances[i])];
    const better = para.higherIsBetter ? p > a : p < a;
    counts[r.error] = (counts[r.error] ?? 0) + (better ? 1 : 0);
  });
  return counts;
}

describe('podium robustness on the built-in MENLI WMT20 de-en suite', () => {
  it.each(['bleu', 'chrf'] as const)('reports %s accuracies equal to a recount from its sentence scores', async (metric) => {
    const out = await run('--metric', metric, '--suite', 'builtin:wmt20-de', '--resamples', '200');
    const expected = passCountsFromSentenceScores(metric);
    expect(Object.keys(out.phenomena).sort()).toEqual(Object.keys(expected).sort());
    for (const [phenomenon, passed] of Object.entries(expected)) {
      expect(out.phenomena[phenomenon]).toMatchObject({ n: 200, passed, accuracy: passed / 200 });
    }
    const macro = Object.values(expected).reduce((a, b) => a + b / 200, 0) / 12;
    expect(out.overall.accuracy).toBeCloseTo(macro, 12);
    expect(out.overall.n).toBe(2400);
    expect(out.overall.ci[0]).toBeLessThan(out.overall.accuracy);
    expect(out.overall.ci[1]).toBeGreaterThan(out.overall.accuracy);
  });

  it('passes a row only when the good side scores strictly better, on rows whose chrF order follows from its definition', async () => {
    // chrF (Popović 2015): a hypothesis equal to its reference has every character and word
    // n-gram precision and recall 1, so chrF 100; one sharing no character with it ("zzz",
    // "qqq" against "The cat sat.") has all of them 0, so chrF 0. MENLI's preference test
    // (M:233, upstream adv_test.py) passes a row when m(ref, good) > m(ref, bad); a tie fails.
    const file = join(mkdtempSync(join(tmpdir(), 'podium-robustness-defined-')), 'defined.csv');
    writeFileSync(
      file,
      'error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free\r\n' +
        'x,1,,The cat sat.,,The cat sat.,zzz,\r\n' + // 100 > 0: passes
        'x,2,,The cat sat.,,qqq,The cat sat.,\r\n' + // 0 < 100: fails
        'x,3,,The cat sat.,,The cat sat.,The cat sat.,\r\n' + // 100 = 100: a tie fails
        'y,1,,The cat sat.,,The cat sat.,qqq,\r\n', // passes
    );
    const out = await run('--metric', 'chrf', '--suite', file, '--resamples', '10', '--show-failing');
    expect(out.phenomena['x']).toMatchObject({ n: 3, passed: 1, accuracy: 1 / 3 });
    expect(out.phenomena['y']).toMatchObject({ n: 1, passed: 1, accuracy: 1 });
    expect(out.overall.accuracy).toBeCloseTo((1 / 3 + 1) / 2, 12); // macro average over phenomena
    expect(out.failing?.map((f) => [f.phenomenon, f.id, f.goodScore, f.badScore]).sort()).toEqual([
      ['x', '2', 0, 100],
      ['x', '3', 100, 100],
    ]);
  });

  it('scores with the NLI test model when --nli-model is given', async () => {
    const out = await run('--metric', 'nli', '--nli-model', join(root, 'models/test-nli-tiny'), '--suite', 'builtin:wmt20-de', '--resamples', '10');
    expect(out.signature).toMatch(/^nli\|model:test-nli-tiny@[0-9a-f]{12}\|formula:e\|dir:<->/);
    expect(out.overall.n).toBe(2400);
  }, 60_000);

  it('compares in the lower-is-better direction for TER', async () => {
    const out = await run('--metric', 'ter', '--suite', 'builtin:wmt20-de', '--resamples', '10', '--show-failing');
    expect(out.signature).toMatch(/^ter\|/);
    for (const f of out.failing ?? []) expect(f.goodScore).toBeGreaterThanOrEqual(f.badScore);
    expect(out.failingCount).toBe(2400 - out.overall.passed);
  });

  it('uses the source as anchor and the reference as good side in src mode', async () => {
    const out = await run('--metric', 'chrf', '--suite', 'builtin:wmt20-de', '--mode', 'src', '--resamples', '10', '--show-failing');
    const sources = suiteRows.map((r) => r.source);
    const good = score('chrf', {}, suiteRows.map((r) => r.ref), [sources]).instances;
    const bad = score('chrf', {}, suiteRows.map((r) => r.hypAdvFree), [sources]).instances;
    const passed = good.filter((g, i) => g > defined(bad[i])).length;
    expect(out.mode).toBe('src');
    expect(out.overall.passed).toBe(passed);
  });
});

describe('podium robustness input handling', () => {
  const dir = mkdtempSync(join(tmpdir(), 'podium-robustness-'));

  it('reads a user CSV with the MENLI columns', async () => {
    const file = join(dir, 'suite.csv');
    writeFileSync(
      file,
      'error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free\n' +
        'num,1,,The price rose by 300 percent.,,The price went up by three hundred percent.,The price rose by 512 percent.,\n',
    );
    const out = await run('--metric', 'chrf', '--suite', file, '--resamples', '10');
    expect(out.suite).toBe(file);
    expect(out.phenomena['num']?.n).toBe(1);
  });

  it('rejects unknown metrics, modes and suites, and nli without a model, as user errors', async () => {
    await expect(run('--metric', 'meteor', '--suite', 'builtin:wmt20-de')).rejects.toThrow(CliError);
    await expect(run('--metric', 'chrf', '--suite', 'builtin:wmt20-de', '--mode', 'both')).rejects.toThrow(/--mode/);
    await expect(run('--metric', 'chrf', '--suite', 'builtin:nope')).rejects.toThrow(/unknown built-in suite/);
    await expect(run('--metric', 'nli', '--suite', 'builtin:wmt20-de')).rejects.toThrow(/--nli-model/);
    await expect(run('--metric', 'chrf', '--suite', join(dir, 'missing.csv'))).rejects.toThrow(/not found/);
  });

  it('refuses src mode on a suite without sources, naming the row', async () => {
    const file = join(dir, 'refonly.csv');
    writeFileSync(file, 'error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free\nneg,4,,A is B.,,A equals B.,A is not B.,\n');
    await expect(run('--metric', 'chrf', '--suite', file, '--mode', 'src')).rejects.toThrow(/\(neg, 4\)/);
  });

  it('resolves builtin:wmt20-de to its verified file in the cache', async () => {
    expect(await resolveSuitePath('builtin:wmt20-de')).toBe(cachedMenliPath('experiments/datasets/adv_datasets/wmt20_google/de/data.csv'));
    expect(await resolveSuitePath('my-suite.csv')).toBe('my-suite.csv');
  });

  it('fetches builtin:xpaws-zh on first use and runs the preference test on it', async () => {
    const file = cachedMenliPath('experiments/datasets/adv_datasets/xpaws/zh/data.csv');
    expect(existsSync(file)).toBe(false);
    const out = await run('--metric', 'chrf', '--suite', 'builtin:xpaws-zh', '--resamples', '10');
    expect(existsSync(file)).toBe(true);
    expect(out.suite).toBe('builtin:xpaws-zh');
    expect(out.overall.n).toBe(parseMenliCsv(readFileSync(file, 'utf8')).length);
    expect(out.overall.accuracy).toBeGreaterThan(0);
    expect(out.overall.accuracy).toBeLessThan(1);
  }, 120_000);

  it('says in one line where to get a built-in suite that cannot be fetched', async () => {
    const saved = process.env['PODIUM_DATA_MIRROR'];
    process.env['PODIUM_DATA_MIRROR'] = join(tmpdir(), 'no-such-mirror');
    try {
      await expect(run('--metric', 'chrf', '--suite', 'builtin:xpaws-de')).rejects.toThrow(/^suite builtin:xpaws-de: PODIUM_DATA_MIRROR names .*no-such-mirror, which does not exist$/);
    } finally {
      process.env['PODIUM_DATA_MIRROR'] = saved;
    }
  });
});

describe('podium generate-suite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'podium-gensuite-'));
  const refs = join(dir, 'refs.en');
  const para = join(dir, 'para.en');
  writeFileSync(refs, 'He said the 3 farmers will sell vegetables at the market.\nAngela told us that the old bridge is closed.\n');
  writeFileSync(para, 'According to him, the three farmers are going to sell vegetables at the market.\nAngela informed us that the old bridge has been shut.\n');

  it('writes a MENLI CSV that podium robustness then reads', async () => {
    const out = join(dir, 'suite.csv');
    const result = (await generateSuiteCommand.run(['--refs', refs, '--paraphrases', para, '--seed', '3', '--out', out])) as {
      rows: number;
      counts: Record<string, number>;
    };
    const rows = parseMenliCsv(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(result.rows);
    expect(result.counts.num).toBe(1);
    expect(rows.find((r) => r.error === 'num')?.hypPara).toBe('He said the three farmers will sell vegetables at the market.');
    const report = await run('--metric', 'chrf', '--suite', out, '--resamples', '10');
    expect(report.overall.n).toBe(result.rows);
  });

  it('produces the same file for the same seed', async () => {
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    await generateSuiteCommand.run(['--refs', refs, '--paraphrases', para, '--seed', '9', '--out', a]);
    await generateSuiteCommand.run(['--refs', refs, '--paraphrases', para, '--seed', '9', '--out', b]);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('refuses a language other than English', async () => {
    await expect(generateSuiteCommand.run(['--refs', refs, '--lang', 'de', '--out', join(dir, 'x.csv')])).rejects.toThrow(
      /English references only/,
    );
  });
});
