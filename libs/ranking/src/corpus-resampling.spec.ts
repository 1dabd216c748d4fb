import { defined } from '../../../test/support/defined';
import { analyseSystems, CLUSTER_DEFINITION, recommendedResamples, significanceWarnings, smallestReachableP } from './analyse';
import { pairedCorpusResampling, sacrebleuInterval } from './corpus-resampling';
import { bootstrapCounts, mulberry32 } from './prng';

// Corpus score of a two-column statistic: a ratio of sums, like one BLEU precision.
const ratio = (rows: number[][]) => (rows[0]?.[1] === 0 ? 0 : defined(rows[0]?.[0], 'stat 0') / defined(rows[0]?.[1], 'stat 1'));

describe('sacrebleuInterval (sacreBLEU significance.estimate_ci)', () => {
  it('takes the order statistics ⌊R/40⌋ and R − ⌊R/40⌋ − 1 and the bootstrap mean (hand: 1…40)', () => {
    const xs = Array.from({ length: 40 }, (_, i) => 40 - i); // unsorted on purpose
    // ⌊40/40⌋ = 1 → lower = s[1] = 2, upper = s[38] = 39, ci = 18.5, mean = 20.5
    expect(sacrebleuInterval(xs)).toEqual({ mean: 20.5, ci: 18.5, lower: 2, upper: 39 });
  });

  it('uses the extremes below 40 resamples (⌊R/40⌋ = 0)', () => {
    expect(sacrebleuInterval([3, 1, 2])).toEqual({ mean: 2, ci: 1, lower: 1, upper: 3 });
  });
});

describe('pairedCorpusResampling against statistics summed by hand', () => {
  const A = [
    [1, 2],
    [3, 4],
    [0, 5],
  ];
  const B = [
    [2, 2],
    [1, 4],
    [1, 5],
  ];

  it('scores the corpus from summed statistics: A = 4/11, B = 4/11', () => {
    const r = pairedCorpusResampling([A, B], ratio, { bootstrapResamples: 5, arTrials: 0 });
    expect(r.scores).toEqual([4 / 11, 4 / 11]);
    expect(r.arP(0, 1)).toBeNaN();
  });

  it('rescores each bootstrap resample from the counts drawn (same resample for both systems)', () => {
    const R = 7;
    const r = pairedCorpusResampling([A, B], ratio, { bootstrapResamples: R, arTrials: 0, seed: 99 });
    const rng = mulberry32(99);
    const counts = new Int32Array(3);
    for (let q = 0; q < R; q++) {
      bootstrapCounts(3, rng, counts);
      const sum = (S: number[][]) => [0, 1].map((c) => S.reduce((acc, row, l) => acc + (counts[l] ?? NaN) * (row[c] ?? NaN), 0));
      expect(r.boot[q * 2]).toBeCloseTo(ratio([sum(A)]), 14);
      expect(r.boot[q * 2 + 1]).toBeCloseTo(ratio([sum(B)]), 14);
    }
  });

  it('gives the sacreBLEU bootstrap p from centred |δ| by hand on those resamples', () => {
    const R = 9;
    const r = pairedCorpusResampling([A, B], ratio, { bootstrapResamples: R, arTrials: 0, seed: 3 });
    const abs = Array.from({ length: R }, (_, q) => Math.abs((r.boot[q * 2] ?? NaN) - (r.boot[q * 2 + 1] ?? NaN)));
    const m = abs.reduce((a, b) => a + b, 0) / R;
    const observed = Math.abs((r.scores[0] ?? NaN) - (r.scores[1] ?? NaN)); // 0
    const c = abs.filter((x) => x - m >= observed - 1e-12).length;
    expect(r.bootstrapP(0, 1)).toBeCloseTo((c + 1) / (R + 1), 14);
  });

  it('converges to the exact permutation p over all 2^n swap masks (AR, n = 3, 200,000 trials)', () => {
    // exact: enumerate the 8 masks by hand-rule A′ = A − swapped(A) + swapped(B)
    const C = [
      [3, 3],
      [1, 4],
      [2, 5],
    ];
    const obs = Math.abs(ratio([[4, 11]]) - ratio([[6, 12]]));
    let hits = 0;
    for (let mask = 0; mask < 8; mask++) {
      const a: [number, number] = [0, 0];
      const b: [number, number] = [0, 0];
      for (let l = 0; l < 3; l++) {
        const swap = (mask >> l) & 1;
        for (const c of [0, 1] as const) {
          a[c] += (swap ? C[l]?.[c] : A[l]?.[c]) ?? NaN;
          b[c] += (swap ? A[l]?.[c] : C[l]?.[c]) ?? NaN;
        }
      }
      if (Math.abs(ratio([a]) - ratio([b])) >= obs - 1e-12) hits++;
    }
    const exact = hits / 8;
    const T = 200000;
    const r = pairedCorpusResampling([A, C], ratio, { bootstrapResamples: 1, arTrials: T, seed: 5 });
    // (hits+1)/(T+1) → exact; Monte-Carlo sd ≤ √(.25/T) ≈ 0.0011, tolerance 5 sd
    expect(Math.abs(r.arP(0, 1) - exact)).toBeLessThan(0.0056);
  });

  it('gives a system against itself p = 1 for both tests', () => {
    const r = pairedCorpusResampling([A, A], ratio, { bootstrapResamples: 50, arTrials: 50 });
    expect(r.bootstrapP(0, 1)).toBe(1);
    expect(r.arP(0, 1)).toBe(1);
  });
});

describe('resamples that can reach significance', () => {
  it('puts the smallest reachable Holm p at 55/1001 = 0.055 > α for 11 systems and 1,000 resamples (the old default)', () => {
    expect(smallestReachableP(1000, 55, 'holm')).toBeCloseTo(55 / 1001, 14);
    expect(significanceWarnings(1000, 55, 0.05, 'holm')[0]).toMatch(/cannot reach significance/);
  });

  it('chooses 11,000 resamples for 55 pairs at α = 0.05 with Holm: smallest p = 55/11001 ≤ α/10', () => {
    const R = recommendedResamples(55, 0.05, 'holm');
    expect(R).toBe(11000);
    expect(smallestReachableP(R, 55, 'holm')).toBeLessThanOrEqual(0.005);
    expect(significanceWarnings(R, 55, 0.05, 'holm')).toEqual([]);
    expect(recommendedResamples(55, 0.05, 'none')).toBe(1000);
  });
});

describe('analyseSystems with corpus statistics', () => {
  // Four systems on 60 instances: per-instance (matches, length); corpus score = Σmatches/Σlength.
  const n = 60;
  const rng = mulberry32(8);
  const quality = [0.9, 0.7, 0.68, 0.3];
  const stats = quality.map((q) => Array.from({ length: n }, () => {
    const len = 5 + rng.nextInt(10);
    let m = 0;
    for (let t = 0; t < len; t++) if (rng.next() < q) m++;
    return [m, len];
  }));
  const table = {
    systems: ['w', 'x', 'y', 'z'],
    instances: Array.from({ length: n }, (_, i) => `i${i}`),
    scores: stats.map((rows) => rows.map((r) => (r[0] ?? NaN) / (r[1] ?? NaN))),
  };

  it('ranks by the corpus score, with sacreBLEU mean ± CI, bootstrap rank intervals and clusters by paired-bs', () => {
    const a = analyseSystems(table, { seed: 1, corpus: { stats, corpusFromStats: ratio } });
    expect(a.settings.resamples).toBe(recommendedResamples(6, 0.05, 'holm')); // 6 pairs → 2,000
    expect(a.settings.cluster_tests.corpus).toBe('bootstrap_corpus');
    const byName = new Map(a.systems.map((s) => [s.system, s]));
    for (const [i, s] of a.systems.entries()) {
      const total = stats[i]?.reduce((acc, r) => [(acc[0] ?? NaN) + (r[0] ?? NaN), (acc[1] ?? NaN) + (r[1] ?? NaN)], [0, 0]);
      expect(s.corpus).toBeCloseTo((total?.[0] ?? NaN) / (total?.[1] ?? NaN), 14);
      expect(s.corpus_ci?.lower).toBeLessThanOrEqual(s.corpus ?? NaN);
      expect(s.corpus_ci?.upper).toBeGreaterThanOrEqual(s.corpus ?? NaN);
      expect(s.rank_ci.corpus?.[0]).toBeLessThanOrEqual(s.rank.corpus ?? NaN);
    }
    expect(byName.get('w')?.rank.corpus).toBe(1);
    expect(byName.get('z')?.rank.corpus).toBe(4);
    // x and y are close: same cluster; w above, z below
    expect(byName.get('x')?.cluster.corpus).toBe(byName.get('y')?.cluster.corpus);
    expect(byName.get('w')?.cluster.corpus).toBeLessThan(byName.get('x')?.cluster.corpus ?? NaN);
    expect(byName.get('z')?.cluster.corpus).toBeGreaterThan(byName.get('y')?.cluster.corpus ?? NaN);
  });

  it('keeps clusters consistent with the pairwise view: systems in different clusters always differ significantly', () => {
    const a = analyseSystems(table, { seed: 2, corpus: { stats, corpusFromStats: ratio } });
    expect(CLUSTER_DEFINITION).toMatch(/every system above is significantly better than every system below/);
    const byName = new Map(a.systems.map((s) => [s.system, s]));
    for (const agg of ['mean', 'median', 'bt', 'corpus'] as const) {
      for (const p of a.pairs) {
        const ca = defined(byName.get(p.a), p.a).cluster[agg];
        const cb = defined(byName.get(p.b), p.b).cluster[agg];
        if (ca !== cb) expect(p.significant[agg]).toBe(true);
      }
    }
  });

  it('drives the corpus clusters with AR when test = ar, and refuses corpus tests without statistics', () => {
    const a = analyseSystems(table, { seed: 2, resamples: 500, test: 'ar', corpus: { stats, corpusFromStats: ratio } });
    expect(a.settings.cluster_tests).toMatchObject({ mean: 'ar', corpus: 'ar_corpus' });
    expect(() => analyseSystems(table, { resamples: 50, test: 'bootstrap_corpus' })).toThrow(/sufficient statistics/);
  });
});

describe('recommendedResamples upper bound', () => {
  it('caps the automatic count at 100,000 and then warns that close pairs may not reach significance', () => {
    expect(recommendedResamples(1225, 0.05, 'holm')).toBe(100000); // 50 systems would need 245,000
    expect(significanceWarnings(100000, 1225, 0.05, 'holm')[0]).toMatch(/smallest possible p .* is 0\.012/);
  });
});
