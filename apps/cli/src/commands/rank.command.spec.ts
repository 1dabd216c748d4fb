import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Analysis } from '@podium/ranking';
import { CliError } from '../cli-error';
import { parseCsv, rankCommand, rowsFromCsv, type RankOutput } from './rank.command';
import { defined } from '../../../../test/support/defined';

const dir = mkdtempSync(join(tmpdir(), 'podium-rank-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const fig1Rows: [string, number[]][] = [
  ['A', [1, 5, 11, 12, 17]],
  ['B', [5, 11, 12, 17, 1]],
  ['C', [2, 6, 7, 13, 18]],
];
const fig1Csv = ['system,instance,score', ...fig1Rows.flatMap(([s, xs]) => xs.map((x, i) => `${s},${i + 1},${x}`))].join('\n') + '\n';

describe('podium rank', () => {
  it('prints every registered method with its descriptor, mean win rate included (Fig. 1 by hand: A 1/5, B 4/5, C 1/2)', async () => {
    const out = (await rankCommand.run(['--scores', file('fig1-methods.csv', fig1Csv), '--resamples', '200'])) as RankOutput;
    expect(out.methods.map((m) => m.key)).toEqual(['mean', 'median', 'bt', 'elo', 'trueskill', 'mean_win_rate']);
    // win rates per instance, by hand: 1: A1 < C2 < B5 → A 0, C ½, B 1; 2: A5 < C6 < B11 → A 0, C ½, B 1;
    // 3: C7 < A11 < B12 → C 0, A ½, B 1; 4: A12 < C13 < B17 → A 0, C ½, B 1; 5: B1 < A17 < C18 → B 0, A ½, C 1
    const rate = (s: string) => defined(out.systems.find((x) => x.system === s)).methods['mean_win_rate']?.value;
    expect(rate('A')).toBeCloseTo(1 / 5, 12);
    expect(rate('B')).toBeCloseTo(4 / 5, 12);
    expect(rate('C')).toBeCloseTo(2.5 / 5, 12);
  });

  it('ranks text outputs by corpus BLEU with paired-bs clusters, sacreBLEU mean ± CI and both signatures', async () => {
    const ref = file('ref.txt', Array.from({ length: 30 }, (_, i) => `the cat number ${i} sat on the mat today`).join('\n') + '\n');
    const good = file('good', Array.from({ length: 30 }, (_, i) => `the cat number ${i} sat on the mat today`).join('\n') + '\n');
    const mid = file('mid', Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `a cat ${i} sat` : `the cat number ${i} sat on a mat today`)).join('\n') + '\n');
    const bad = file('bad', Array.from({ length: 30 }, (_, i) => `a dog ${i} stood`).join('\n') + '\n');
    const out = (await rankCommand.run(['--metric', 'bleu', '--ref', ref, '--hyp', mid, '--hyp', bad, '--hyp', good, '--resamples', '300'])) as RankOutput;
    expect(out.main_aggregation).toBe('corpus');
    expect(out.signatures?.corpus).toMatch(/^bleu\|nrefs:1\|case:mixed\|eff:no\|tok:13a/);
    expect(out.signatures?.sentence).toMatch(/eff:yes/);
    const by = new Map(out.systems.map((s) => [s.system, s]));
    expect(defined(by.get('good')).corpus).toBeCloseTo(100, 10);
    expect([defined(by.get('good')).rank.corpus, defined(by.get('mid')).rank.corpus, defined(by.get('bad')).rank.corpus]).toEqual([1, 2, 3]);
    expect(out.settings.cluster_tests.corpus).toBe('bootstrap_corpus');
    expect(out.cluster_definition).toMatch(/WMT style/);
    expect(out.test_labels.corpus).toMatch(/paired-bs/);
    expect(defined(defined(by.get('mid')).corpus_ci).ci).toBeGreaterThan(0);
    await expect(rankCommand.run(['--metric', 'rouge1', '--ref', ref, '--hyp', mid, '--hyp', bad])).rejects.toThrow(/summed statistics/);
  });

  it('ranks the paper Fig. 1 CSV: BT strengths ≈ (0.0942, 0.6570, 0.2488), equal means', async () => {
    const out = (await rankCommand.run(['--scores', file('fig1.csv', fig1Csv), '--resamples', '100'])) as Analysis;
    expect(out.systems.map((s) => s.system)).toEqual(['A', 'B', 'C']);
    [0.0942, 0.657, 0.2488].forEach((v, i) => expect(out.systems[i]?.bt).toBeCloseTo(v, 3)); // exact MLE 0.657053
    expect(out.systems.every((s) => Math.abs(s.mean - 9.2) < 1e-12)).toBe(true);
    expect(out.settings).toMatchObject({ seed: 12345, resamples: 100, correction: 'holm', alpha: 0.05 });
  });

  it("takes a score file's direction from the metric registry with --scores-of (TER: lower is better, as --lower-is-better)", async () => {
    const path = file('fig1-ter.csv', fig1Csv);
    const registry = (await rankCommand.run(['--scores', path, '--scores-of', 'ter', '--resamples', '50'])) as Analysis;
    const flag = (await rankCommand.run(['--scores', path, '--lower-is-better', '--resamples', '50'])) as Analysis;
    expect(registry.settings.higher_is_better).toBe(false);
    expect(registry).toEqual(flag);
    const bleu = (await rankCommand.run(['--scores', path, '--scores-of', 'bleu', '--resamples', '50'])) as Analysis;
    expect(bleu.settings.higher_is_better).toBe(true);
    await expect(rankCommand.run(['--scores', path, '--scores-of', 'no-such-metric'])).rejects.toThrow(/unknown metric 'no-such-metric' \(registered: .*ter/);
    await expect(rankCommand.run(['--scores', path, '--scores-of', 'ter', '--lower-is-better'])).rejects.toThrow(CliError);
  });

  it('accepts JSONL with the same keys and gives the same result as CSV', async () => {
    const jsonl = fig1Rows.flatMap(([s, xs]) => xs.map((x, i) => JSON.stringify({ system: s, instance: String(i + 1), score: x }))).join('\n');
    const a = await rankCommand.run(['--scores', file('fig1.jsonl', jsonl), '--resamples', '50']);
    const b = await rankCommand.run(['--scores', file('fig1b.csv', fig1Csv), '--resamples', '50']);
    expect(a).toEqual(b);
  });

  it('reads quoted CSV fields with commas, doubled quotes and CRLF line ends', () => {
    expect(parseCsv('system,instance,score\r\n"sys, ""v2""",seg1,0.5\r\n').map((r) => r.fields)).toEqual([
      ['system', 'instance', 'score'],
      ['sys, "v2"', 'seg1', '0.5'],
    ]);
  });

  it('keeps newlines inside quoted fields and reports the line a bad record starts on', () => {
    const records = parseCsv('system,instance,score\n"multi\nline",1,2\nB,2,3\n');
    expect(records.map((r) => r.fields)).toEqual([
      ['system', 'instance', 'score'],
      ['multi\nline', '1', '2'],
      ['B', '2', '3'],
    ]);
    expect(records[2]?.line).toBe(4);
    expect(() => parseCsv('a,b\n"open,1\n')).toThrow(/line 2: unterminated quoted field/);
    expect(() => parseCsv('a,b\nx"y,1\n')).toThrow(/line 2: quote inside an unquoted field/);
    expect(() => parseCsv('system,instance,score\n"a"b,1,2\n')).toThrow(/line 2: text after a closing quote/);
    expect(() => rowsFromCsv('system,instance,score\n"a"b,1,2\n', 'scores.csv')).toThrow(/^scores\.csv line 2: text after a closing quote$/);
  });

  it('passes seed, correction, alpha and test through to the analysis', async () => {
    const out = (await rankCommand.run(['--scores', file('f.csv', fig1Csv), '--seed', '7', '--resamples', '20', '--correction', 'bh', '--alpha', '0.1', '--test', 'sign'])) as Analysis;
    expect(out.settings).toMatchObject({ seed: 7, correction: 'bh', alpha: 0.1, cluster_tests: { mean: 'sign', median: 'sign', bt: 'sign' } });
  });

  it.each([
    ['a missing file', ['--scores', join(dir, 'nope.csv')], /scores file not found/],
    ['a ragged line', ['--scores', file('ragged.csv', 'system,instance,score\nA,1,2,3\n')], /line 2: expected 3 fields, got 4/],
    ['a non-numeric score', ['--scores', file('nan.csv', 'system,instance,score\nA,1,abc\n')], /line 2: score 'abc' is not a finite number/],
    ['a missing header column', ['--scores', file('hdr.csv', 'sys,instance,score\nA,1,2\n')], /header must name columns/],
    ['missing cells', ['--scores', file('miss.csv', 'system,instance,score\nA,1,1\nA,2,2\nB,1,3\n')], /1 missing \(system, instance\) cell\(s\): \(B, 2\)/],
    ['bad JSONL', ['--scores', file('bad.jsonl', '{"system":"A","instance":"1","score":1}\n{oops\n')], /line 2: not valid JSON/],
    ['an unknown correction', ['--scores', file('c.csv', fig1Csv), '--correction', 'bonferroni'], /--correction must be one of holm, bh, none, got 'bonferroni'/],
    ['a bad alpha', ['--scores', file('a.csv', fig1Csv), '--alpha', '1.5'], /--alpha/],
    ['no --scores', [], /--scores FILE .*is required/],
    ['an unknown flag', ['--scores', file('u.csv', fig1Csv), '--bogus'], /bogus/],
  ])('rejects %s with one clear CliError line', async (_label, argv, message) => {
    const run = rankCommand.run(argv);
    await expect(run).rejects.toThrow(CliError);
    await expect(rankCommand.run(argv)).rejects.toThrow(message);
  });
});
