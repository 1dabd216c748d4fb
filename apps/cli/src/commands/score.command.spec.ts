// `podium score` end to end on WMT17 de-en (data set wmt17-de-en, fetched from the test mirror);
// expected corpus values come from test/golden/sacrebleu-wmt17-de-en.json (sacreBLEU 2.6.0).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wmtFiles } from '../../../../test/support/test-data';
import { CliError } from '../cli-error';
import { scoreCommand } from './score.command';
import { defined } from '../../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const root = join(__dirname, '..', '..', '..', '..');
const golden = JSON.parse(readFileSync(join(root, 'test/golden/sacrebleu-wmt17-de-en.json'), 'utf8'));
let HYP: string;
let REF: string;

interface ScoreOutput {
  metric: string;
  signature: string;
  sentenceSignature: string;
  corpus: number;
  instances: number[];
}
const run = async (...args: string[]) => (await scoreCommand.run(args)) as ScoreOutput;

describe('podium score', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podium-score-'));
    const wmt = await wmtFiles('wmt17-de-en');
    HYP = defined(wmt.systems.find((s) => s.name === 'online-B.0')).file;
    REF = wmt.reference;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints sacreBLEU's corpus BLEU 32.97 and signature for online-B.0", async () => {
    const out = await run('--metric', 'bleu', '--hyp', HYP, '--ref', REF);
    expect(Object.keys(out)).toEqual(['metric', 'signature', 'sentenceSignature', 'corpus', 'instances']);
    expect(out.corpus).toBeCloseTo(golden.systems['online-B.0'].bleu.corpus, 6);
    expect(out.signature).toBe('bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:podium-0.1.0');
    expect(out.instances).toHaveLength(3004);
    expect(out.instances[0]).toBeCloseTo(golden.systems['online-B.0'].bleu.sentence_first100[0], 6);
  });

  it('passes --tokenize and --lowercase to BLEU', async () => {
    const intl = await run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--tokenize', 'intl');
    expect(intl.corpus).toBeCloseTo(golden.systems['online-B.0'].bleu_intl.corpus, 6);
    const lc = await run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--lowercase');
    expect(lc.corpus).toBeCloseTo(golden.systems['online-B.0'].bleu_lowercase.corpus, 6);
  });

  it('scores chrF++ and TER like sacreBLEU', async () => {
    expect((await run('--metric', 'chrf++', '--hyp', HYP, '--ref', REF)).corpus).toBeCloseTo(golden.systems['online-B.0']['chrf++'].corpus, 6);
    expect((await run('--metric', 'ter', '--hyp', HYP, '--ref', REF)).corpus).toBeCloseTo(golden.systems['online-B.0'].ter.corpus, 6);
  });

  it('accepts several --ref files and records nrefs', async () => {
    const out = await run('--metric', 'chrf', '--hyp', HYP, '--ref', REF, '--ref', REF);
    expect(out.signature).toContain('chrf|nrefs:2|');
    expect(out.corpus).toBeCloseTo(golden.systems['online-B.0'].chrf.corpus, 6);
  });

  it('splits rougeLsum sentences on --sentence-sep and stems with --stem', async () => {
    const hyp = join(dir, 'sum.hyp');
    const ref = join(dir, 'sum.ref');
    writeFileSync(hyp, 'w1 w2 w6 w7 w8<n>w1 w3 w8 w9 w5\n');
    writeFileSync(ref, 'w1 w2 w3 w4 w5\n');
    const out = await run('--metric', 'rougeLsum', '--hyp', hyp, '--ref', ref, '--sentence-sep', '<n>', '--stem');
    // Lin (2004) summary-level LCS example: R 4/5, P 4/10.
    expect(out.corpus).toBeCloseTo((2 * 0.8 * 0.4) / 1.2, 12);
    expect(out.signature).toContain('stem:porter');
  });

  it('fails with one clear line when a file is missing', async () => {
    await expect(run('--metric', 'bleu', '--hyp', join(dir, 'nope.txt'), '--ref', REF)).rejects.toThrow(
      new CliError(`hypothesis file not found: ${join(dir, 'nope.txt')}`),
    );
  });

  it('fails when the reference has a different number of lines', async () => {
    const short = join(dir, 'short.ref');
    writeFileSync(short, 'one\ntwo\n');
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', short)).rejects.toThrow(
      `reference file ${short} has 2 lines but hypothesis file ${HYP} has 3004`,
    );
  });

  it('fails on an empty reference file, an unknown metric, a missing --ref and a bad option', async () => {
    const empty = join(dir, 'empty.ref');
    writeFileSync(empty, '');
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', empty)).rejects.toThrow('has 0 lines');
    await expect(run('--metric', 'meteor', '--hyp', HYP, '--ref', REF)).rejects.toThrow("unknown metric 'meteor'");
    await expect(run('--metric', 'bleu', '--hyp', HYP)).rejects.toThrow('at least one --ref FILE is required');
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--smooth', 'laplace')).rejects.toThrow(CliError);
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--stem')).rejects.toThrow("option 'stem' does not apply to bleu");
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--bogus')).rejects.toThrow(CliError);
  });

  it('reads --smooth-value -1 as a value and rejects it with a range error, not "ambiguous"', async () => {
    await expect(run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--smooth', 'floor', '--smooth-value', '-1')).rejects.toThrow('--smooth-value must be ≥ 0');
    const ok = (await run('--metric', 'bleu', '--hyp', HYP, '--ref', REF, '--smooth', 'floor', '--smooth-value', '0.2')) as { signature: string };
    expect(ok.signature).toContain('smooth:floor[0.20]');
  });
});
