/**
 * Corpus-level paired tests against sacreBLEU's own published figures on WMT17 en-de.
 *
 * Expected values: sacreBLEU README (github mjpost/sacrebleu, "Example: Paired bootstrap
 * resampling" and "Example: Paired approximate randomization", version 2.0.0):
 *   sacrebleu -t wmt17 -l en-de -i newstest2017.LIUM-NMT.4900.en-de newstest2017.* -m bleu chrf --paired bs|ar
 * bs: 2000 resamples, seed 12345; ar: 10000 trials. Baseline LIUM-NMT. Same raw WMT17 files,
 * BLEU tok:13a and chrF2 (sacreBLEU defaults). Its test/test_significance.py checks Moses and
 * multeval p-values on a pickled, differently tokenised copy of the data, so those numbers do not
 * apply to the raw files; the README table is the same computation on these files.
 *
 * sacreBLEU's RNG (NumPy default_rng(12345)) cannot be reproduced, so p-values are compared
 * within a Monte-Carlo tolerance: both sides are estimates from R draws; the difference of two
 * independent estimates has sd √(2p(1−p)/R); we allow 4 sd + 0.001, for several seeds.
 * Data: PODIUM_DATA_MIRROR (default <repo>/../shared/data/mirror).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getMetric, type MetricName } from '@podium/metrics';
import { pairedCorpusResampling } from '@podium/ranking';
import { defined } from '../support/defined';

const repo = path.resolve(__dirname, '..', '..');
const candidates = [process.env.PODIUM_DATA_MIRROR, path.join(repo, '..', 'shared', 'data', 'mirror'), path.join(repo, '..', '..', 'shared', 'data', 'mirror')];
const mirror = candidates.find((c): c is string => !!c && existsSync(c));
const WMT17 = 'cyr19/MENLI/911238d470288125d35cc950f69411bc619a2c4b/experiments/datasets/WMT17';

const SYSTEMS = ['LIUM-NMT.4900', 'FBK.4870', 'KIT.4950', 'online-A.0', 'online-B.0', 'PROMT-Rule-based.4735'];
// README: score / μ / ± 95% CI and p per metric (baseline first, p = null)
const README_BS: Record<'bleu' | 'chrf', { score: number; mean: number; ci: number; p: number | null }[]> = {
  bleu: [
    { score: 26.6, mean: 26.6, ci: 0.65, p: null },
    { score: 26.3, mean: 26.3, ci: 0.65, p: 0.0945 },
    { score: 26.1, mean: 26.1, ci: 0.66, p: 0.0105 },
    { score: 20.8, mean: 20.8, ci: 0.59, p: 0.0005 },
    { score: 26.7, mean: 26.7, ci: 0.67, p: 0.3073 },
    { score: 16.6, mean: 16.6, ci: 0.51, p: 0.0005 },
  ],
  chrf: [
    { score: 55.9, mean: 55.9, ci: 0.47, p: null },
    { score: 54.7, mean: 54.7, ci: 0.48, p: 0.0005 },
    { score: 55.8, mean: 55.8, ci: 0.46, p: 0.1089 },
    { score: 52.0, mean: 52.0, ci: 0.43, p: 0.0005 },
    { score: 56.3, mean: 56.3, ci: 0.45, p: 0.024 },
    { score: 50.4, mean: 50.4, ci: 0.4, p: 0.0005 },
  ],
};
const README_AR: Record<'bleu' | 'chrf', (number | null)[]> = {
  bleu: [null, 0.1887, 0.0193, 0.0001, 0.8066, 0.0001],
  chrf: [null, 0.0001, 0.2511, 0.0001, 0.0385, 0.0001],
};

const mcTolerance = (p: number, R: number) => 4 * Math.sqrt((2 * Math.max(p, 1 / R) * (1 - p)) / R) + 0.001;

const describeData = mirror ? describe : describe.skip;
describeData(`sacreBLEU paired-bs / paired-ar on WMT17 en-de (mirror: ${mirror ?? 'not found, set PODIUM_DATA_MIRROR'})`, () => {
  const base = path.join(mirror ?? '', WMT17);
  const read = (p: string) => readFileSync(path.join(base, p), 'utf8').replace(/\n$/, '').split('\n');
  const refs = mirror ? read('references/newstest2017-ende-ref.de') : [];
  const hyps = mirror ? SYSTEMS.map((s) => read(`system-outputs/newstest2017/en-de/newstest2017.${s}.en-de`)) : [];
  // Each metric's per-sentence statistics of the six systems, computed once for both of its tests.
  const computed = new Map<MetricName, { m: ReturnType<typeof getMetric>; stats: number[][][] }>();
  const statsOf = (name: MetricName) => {
    let c = computed.get(name);
    if (!c) {
      const m = getMetric(name, {});
      c = { m, stats: hyps.map((h) => h.map((line, i) => m.stats(line, [defined(refs[i])]))) };
      computed.set(name, c);
    }
    return c;
  };

  for (const name of ['bleu', 'chrf'] as const) {
    it(`${name}: corpus scores, bootstrap mean ± CI and paired-bs p-values match the README within Monte-Carlo error (seeds 12345, 1, 2)`, () => {
      const { m, stats } = statsOf(name);
      expect(hyps.every((h) => h.length === 3004)).toBe(true);
      for (const seed of [12345, 1, 2]) {
        const r = pairedCorpusResampling(stats, (rows) => m.corpusFromStats(rows), { bootstrapResamples: 2000, arTrials: 0, seed });
        README_BS[name].forEach((exp, i) => {
          expect(Math.abs(defined(r.scores[i]) - exp.score)).toBeLessThanOrEqual(0.05 + 1e-9); // printed to 1 decimal
          expect(Math.abs(defined(r.intervals[i]).mean - exp.mean)).toBeLessThanOrEqual(0.05 + 0.03);
          expect(Math.abs(defined(r.intervals[i]).ci - exp.ci)).toBeLessThanOrEqual(0.005 + 0.04); // 2 decimals + MC spread of the CI
          if (exp.p !== null) expect(Math.abs(r.bootstrapP(0, i) - exp.p)).toBeLessThanOrEqual(mcTolerance(exp.p, 2000));
        });
      }
    });

    it(`${name}: paired-ar p-values (10,000 trials) match the README within Monte-Carlo error (seeds 12345, 7)`, () => {
      const { m, stats } = statsOf(name);
      for (const seed of [12345, 7]) {
        const r = pairedCorpusResampling(stats, (rows) => m.corpusFromStats(rows), { bootstrapResamples: 1, arTrials: 10000, seed });
        README_AR[name].forEach((p, i) => {
          if (p !== null) expect(Math.abs(r.arP(0, i) - p)).toBeLessThanOrEqual(mcTolerance(p, 10000));
        });
      }
    });
  }
});
