/**
 * @jest-environment ../../libs/nli/jest-environment.js
 */
// The NLI case runs onnxruntime-node, whose typed arrays need the realm-sharing environment of libs/nli.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { score } from '@podium/metrics';
import { CliError } from '../cli-error';
import { reportCardCommand, systemNameOf } from './report-card.command';
import { findRepoRoot } from './robustness.command';
import { useTestDataEnv, wmtFiles } from '../../../../test/support/test-data';
import { defined } from '../../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

interface Card {
  metric: string;
  robustness: { overall: { accuracy: number } } | null;
  humanCorrelation: { segment: { pearson: number; kendallTauB: number; n: number }; system: { pearson: number; n: number; systems: string[] } };
  skippedJudgements: number;
  combinedWith?: { tradeoff: { w: number; accuracy: number; segmentPearson: number; systemPearson: number }[] };
}

const root = findRepoRoot(__dirname);
// WMT17 de-en through the dataset registry (test mirror): upstream file names, the all-pairs DA file.
useTestDataEnv(); // builtin: suites (the default --suite) come from the test mirror too
let wmt: { reference: string; human: string };
let systemFiles: string[];
beforeAll(async () => {
  const files = await wmtFiles('wmt17-de-en');
  wmt = { reference: files.reference, human: defined(files.human) };
  systemFiles = files.systems.map((s) => s.file);
});

/** Pearson r written out independently of @podium/robustness. */
function r(x: number[], y: number[]): number {
  const mx = x.reduce((a, b) => a + b) / x.length;
  const my = y.reduce((a, b) => a + b) / y.length;
  let sxy = 0, sxx = 0, syy = 0;
  x.forEach((v, i) => {
    const w = defined(y[i], `y[${i}]`);
    sxy += (v - mx) * (w - my);
    sxx += (v - mx) ** 2;
    syy += (w - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

describe('podium report-card', () => {
  it('names systems by file name without the extension', () => {
    expect(systemNameOf('/x/KIT.4951.en')).toBe('KIT.4951');
    expect(systemNameOf('/cache/newstest2017.KIT.4951.de-en')).toBe('KIT.4951');
    expect(systemNameOf('/cache/newstest2017.online-B.0.en-de')).toBe('online-B.0');
  });

  it("correlates chrF with WMT17 de-en DA at segment and system level, handling '+'-joined systems", async () => {
    const args = ['--metric', 'chrf', '--refs', wmt.reference, '--human', wmt.human, '--lp', 'de-en', '--suite', 'none'];
    for (const f of systemFiles) args.push('--system', f);
    const card = (await reportCardCommand.run(args)) as Card;

    // Independent recomputation: sentence chrF per judged segment, the first listed system for
    // joined rows (identical outputs); system means over every listed system.
    // reference.en and online-A.0.en start with a byte-order mark, which the CLI's UTF-8 reader drops.
    const lines = (f: string): string[] => readFileSync(f, 'utf8').replace(/^\uFEFF/, '').split('\n').slice(0, 3004);
    const refs = lines(wmt.reference);
    const sentence = new Map<string, number[]>();
    const corpus = new Map<string, number>();
    for (const f of systemFiles) {
      const s = score('chrf', {}, lines(f), [refs]);
      sentence.set(systemNameOf(f), s.instances);
      corpus.set(systemNameOf(f), s.corpus);
    }
    // Columns: LP DATA SYSTEM SID HUMAN.
    const da = readFileSync(wmt.human, 'utf8').trim().split('\n').slice(1).map((l) => {
      const [lp, , system, sid, score] = l.split(' ');
      return { lp, systems: defined(system, 'SYSTEM').split('+'), sid: Number(sid), human: Number(score) };
    }).filter((c) => c.lp === 'de-en');
    const seg = da.map((c) => defined(defined(sentence.get(defined(c.systems[0])))[c.sid - 1], `segment ${c.sid}`));
    const human = da.map((c) => c.human);
    const bySystem = new Map<string, number[]>();
    for (const c of da) for (const s of c.systems) bySystem.set(s, [...(bySystem.get(s) ?? []), c.human]);
    const systems = [...bySystem.keys()].sort();
    const sysHuman = systems.map((s) => (bySystem.get(s) as number[]).reduce((a, b) => a + b) / (bySystem.get(s) as number[]).length);

    expect(card.robustness).toBeNull();
    expect(card.skippedJudgements).toBe(0);
    expect(card.humanCorrelation.segment.n).toBe(560);
    expect(card.humanCorrelation.segment.pearson).toBeCloseTo(r(seg, human), 10);
    expect(card.humanCorrelation.system.n).toBe(11);
    expect(card.humanCorrelation.system.pearson).toBeCloseTo(r(systems.map((s) => corpus.get(s) as number), sysHuman), 10);
  });

  it('draws a trade-off curve whose ends are the classical metric (w = 0) and NLI (w = 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podium-card-'));
    const refs = ['The cat sat on the mat.', 'Prices rose by 3 percent.', 'She will not come today.', 'We met John in Paris.'];
    const sys: Record<string, string[]> = {
      A: ['The cat sat on the mat.', 'Prices rose by three percent.', 'She will not come today.', 'We met John in Paris.'],
      B: ['A cat is on a mat.', 'Prices went up 3 percent.', 'She comes today.', 'We saw John in London.'],
      C: ['Dog.', 'Prices fell.', 'Today she will come.', 'John met us.'],
    };
    writeFileSync(join(dir, 'ref.en'), refs.join('\n') + '\n');
    for (const [name, lines] of Object.entries(sys)) writeFileSync(join(dir, `${name}.en`), lines.join('\n') + '\n');
    writeFileSync(
      join(dir, 'da.csv'),
      ['LP DATA SYSTEM SID HUMAN', 'x-en t A 1 1.0', 'x-en t B 1 0.2', 'x-en t C 1 -1.0', 'x-en t A+B 2 0.5', 'x-en t C 3 -0.4', 'x-en t B 4 -0.1'].join('\n') + '\n',
    );
    const base = ['--refs', join(dir, 'ref.en'), '--human', join(dir, 'da.csv'), '--resamples', '10'];
    for (const n of Object.keys(sys)) base.push('--system', join(dir, `${n}.en`));
    const model = join(root, 'models/test-nli-tiny');
    const nli = (await reportCardCommand.run(['--metric', 'nli', '--nli-model', model, '--combine-with', 'chrf', '--weights', '0,0.5,1', ...base])) as Card;
    const chrf = (await reportCardCommand.run(['--metric', 'chrf', ...base])) as Card;
    const curve = nli.combinedWith?.tradeoff ?? [];
    expect(curve.map((p) => p.w)).toEqual([0, 0.5, 1]);
    const [atChrf, , atNli] = curve;
    expect(atChrf?.accuracy).toBeCloseTo(defined(chrf.robustness?.overall.accuracy), 12);
    expect(atNli?.accuracy).toBeCloseTo(defined(nli.robustness?.overall.accuracy), 12);
    // Min–max scaling is affine, so Pearson at the ends equals the single metric's.
    expect(atChrf?.segmentPearson).toBeCloseTo(chrf.humanCorrelation.segment.pearson, 10);
    expect(atNli?.segmentPearson).toBeCloseTo(nli.humanCorrelation.segment.pearson, 10);
    expect(atNli?.systemPearson).toBeCloseTo(nli.humanCorrelation.system.pearson, 10);
  }, 120_000);

  it('rejects --combine-with without --metric nli and a DA file with several pairs without --lp', async () => {
    const firstSystem = defined(systemFiles[0], 'a WMT17 system file');
    const args = ['--refs', wmt.reference, '--system', firstSystem, '--human', wmt.human, '--lp', 'de-en'];
    await expect(reportCardCommand.run(['--metric', 'chrf', '--combine-with', 'bleu', ...args])).rejects.toThrow(CliError);
    const dir = mkdtempSync(join(tmpdir(), 'podium-card-lp-'));
    writeFileSync(join(dir, 'da.csv'), 'LP DATA SYSTEM SID HUMAN\nde-en t A 1 0\ncs-en t A 1 0\n');
    await expect(
      reportCardCommand.run(['--metric', 'chrf', '--refs', wmt.reference, '--system', firstSystem, '--human', join(dir, 'da.csv')]),
    ).rejects.toThrow(/--lp/);
  });
});
