import { defined } from '../../../test/support/defined';
import { analyseSystems, type Analysis } from './analyse';
import { FIG1 } from './fixtures/fig1';
import { mulberry32 } from './prng';
import { approximateRandomization, pairedBootstrap } from './resampling';
import { buildScoreTable, RankingInputError, type ScoreTable } from './score-table';


function synthetic(k: number, n: number, seed: number): ScoreTable {
  const rng = mulberry32(seed);
  const difficulty = Array.from({ length: n }, () => rng.nextNormal());
  return {
    systems: Array.from({ length: k }, (_, s) => `sys${s}`),
    instances: Array.from({ length: n }, (_, i) => `i${String(i).padStart(4, '0')}`),
    scores: Array.from({ length: k }, (_, s) => difficulty.map((d) => Math.round((d + 0.15 * s + 0.8 * rng.nextNormal()) * 100) / 100)),
  };
}

const fast = { resamples: 200, eloOrders: 3 };
const bySystem = (a: Analysis) => new Map(a.systems.map((s) => [s.system, s]));

describe('analyseSystems', () => {
  it('reproduces the paper Fig. 1: equal means, medians 11/11/7, BT ≈ (0.0942, 0.6570, 0.2488)', () => {
    const a = analyseSystems(FIG1, fast);
    expect(a.systems.map((s) => s.mean)).toEqual([9.2, 9.2, 9.2].map((v) => expect.closeTo(v, 12)));
    expect(a.systems.map((s) => s.median)).toEqual([11, 11, 7]);
    [0.0942, 0.657, 0.2488].forEach((v, i) => expect(a.systems[i]?.bt).toBeCloseTo(v, 3)); // exact MLE 0.657053 (bradley-terry.spec)
    expect(a.systems.map((s) => s.rank.mean)).toEqual([1, 1, 1]); // a total order with ties
    expect(a.systems.map((s) => s.rank.median)).toEqual([1, 1, 3]);
    expect(a.systems.map((s) => s.rank.bt)).toEqual([3, 1, 2]);
    const ab = a.pairs.find((p) => p.a === 'A' && p.b === 'B');
    expect(ab).toMatchObject({ wins: 1, losses: 4, ties: 0, median_diff: -4 });
    expect(ab?.p_bt).toBeCloseTo(0.0942 / (0.0942 + 0.657), 3);
  });

  it('gives Elo and TrueSkill rank intervals from the spread over game orders', () => {
    const a = analyseSystems(synthetic(4, 30, 12), { resamples: 50, eloOrders: 8 });
    for (const s of a.systems) {
      for (const key of ['elo', 'trueskill'] as const) {
        const ci = s.rank_ci[key];
        expect(ci).toBeDefined();
        if (!ci) continue;
        expect(ci[0]).toBeGreaterThanOrEqual(1);
        expect(ci[1]).toBeLessThanOrEqual(4);
        expect(ci[0]).toBeLessThanOrEqual(ci[1]);
      }
    }
  });

  it('emits exactly the documented JSON shape for systems and pairs', () => {
    const a = analyseSystems(FIG1, fast);
    expect(Object.keys(a.systems[0] ?? {})).toEqual(
      expect.arrayContaining(['system', 'n', 'mean', 'median', 'bt', 'bt_ci', 'elo', 'trueskill', 'rank', 'cluster']),
    );
    expect(Object.keys(a.pairs[0]?.tests ?? {}).sort()).toEqual(['ar', 'bootstrap', 'mood', 'sign', 'ttest', 'wilcoxon']);
    expect(Object.keys(a.pairs[0]?.p_adjusted ?? {}).sort()).toEqual(['ar', 'bootstrap', 'mood', 'sign', 'ttest', 'wilcoxon']);
    expect(a.pairs).toHaveLength(3);
  });

  it('changes nothing when instances are permuted', () => {
    const t = synthetic(4, 60, 1);
    const perm = Array.from({ length: 60 }, (_, i) => (i * 37) % 60);
    const permuted: ScoreTable = { ...t, instances: perm.map((i) => t.instances[i] ?? ''), scores: t.scores.map((r) => perm.map((i) => r[i] ?? NaN)) };
    expect(analyseSystems(permuted, fast)).toEqual(analyseSystems(t, fast));
  });

  it('changes nothing but the listing order when systems are permuted', () => {
    const t = synthetic(4, 60, 2);
    const order = [2, 0, 3, 1];
    const permuted: ScoreTable = { ...t, systems: order.map((s) => t.systems[s] ?? ''), scores: order.map((s) => t.scores[s] ?? []) };
    const a = analyseSystems(t, fast);
    const b = analyseSystems(permuted, fast);
    const sa = bySystem(a);
    for (const s of b.systems) expect(s).toEqual(sa.get(s.system));
    for (const p of b.pairs) {
      const q = a.pairs.find((x) => (x.a === p.a && x.b === p.b) || (x.a === p.b && x.b === p.a));
      expect(q).toBeDefined();
      if (!q) continue;
      expect(p.p_adjusted).toEqual(q.p_adjusted);
      expect(p.tests.sign.p).toBe(q.tests.sign.p);
      expect(p.tests.ar.p).toBe(q.tests.ar.p);
      if (q.a === p.a) expect(p.wins).toBe(q.wins);
      else expect(p.wins).toBe(q.losses);
    }
  });

  it('shifts only that system’s mean and median when a constant is added to all its scores', () => {
    const t = synthetic(3, 40, 3);
    const c = 0.37;
    const shifted: ScoreTable = { ...t, scores: t.scores.map((r, s) => (s === 1 ? r.map((x) => x + c) : r)) };
    const a = bySystem(analyseSystems(t, fast));
    const b = bySystem(analyseSystems(shifted, fast));
    expect(b.get('sys1')?.mean).toBeCloseTo((a.get('sys1')?.mean ?? NaN) + c, 12);
    expect(b.get('sys1')?.median).toBeCloseTo((a.get('sys1')?.median ?? NaN) + c, 12);
    for (const s of ['sys0', 'sys2']) {
      expect(b.get(s)?.mean).toBe(a.get(s)?.mean);
      expect(b.get(s)?.median).toBe(a.get(s)?.median);
    }
  });

  it('leaves every paired quantity unchanged when one instance gets the same offset for all systems', () => {
    // Instance difficulty offsets keep the pairing (thesis ch. 11 §4): BT, Elo, tests are paired.
    const t = synthetic(3, 40, 4);
    const offset: ScoreTable = { ...t, scores: t.scores.map((r) => r.map((x, i) => (i === 7 ? x + 50 : x))) };
    const a = analyseSystems(t, fast);
    const b = analyseSystems(offset, fast);
    a.systems.forEach((s, i) => {
      expect(b.systems[i]?.bt).toBe(s.bt);
      expect(b.systems[i]?.elo).toBe(s.elo);
      expect(b.systems[i]?.trueskill).toEqual(s.trueskill);
      expect(b.systems[i]?.mean).toBeCloseTo(s.mean + 50 / 40, 10);
    });
    a.pairs.forEach((p, q) => {
      expect(b.pairs[q]?.tests.sign).toEqual(p.tests.sign);
      expect(b.pairs[q]?.tests.ttest.p).toBeCloseTo(p.tests.ttest.p, 9);
      expect(b.pairs[q]?.tests.wilcoxon).toEqual(p.tests.wilcoxon);
    });
  });

  it('ranks lower-is-better scores as the negated higher-is-better scores, reporting original units', () => {
    const t = synthetic(3, 30, 5);
    const neg: ScoreTable = { ...t, scores: t.scores.map((r) => r.map((x) => -x)), higherIsBetter: false };
    const a = analyseSystems(t, fast);
    const b = analyseSystems(neg, fast);
    a.systems.forEach((s, i) => {
      expect(b.systems[i]?.bt).toBe(s.bt);
      expect(b.systems[i]?.rank).toEqual(s.rank);
      expect(b.systems[i]?.mean).toBeCloseTo(-s.mean, 12);
      expect(b.systems[i]?.mean_ci[0]).toBeCloseTo(-s.mean_ci[1], 12);
    });
    expect(b.settings.higher_is_better).toBe(false);
  });

  it('computes the bootstrap and AR p-values exactly as the single-pair tests with the documented seeds', () => {
    const t = synthetic(3, 50, 6);
    const a = analyseSystems(t, { resamples: 300, seed: 77 });
    const pair = a.pairs[0];
    expect(pair?.tests.bootstrap.p).toBeCloseTo(pairedBootstrap(defined(t.scores[0], 'scores A'), defined(t.scores[1], 'scores B'), { resamples: 300, seed: 77 }).p, 12);
    expect(pair?.tests.ar.p).toBeCloseTo(approximateRandomization(defined(t.scores[0], 'scores A'), defined(t.scores[1], 'scores B'), { resamples: 300, seed: 78 }).p, 12);
  });

  it('separates clearly different systems into clusters and flags where mean and BT disagree', () => {
    // X = base; Y = base + 1 on 90% of instances and base − 30 on 10% (outliers):
    // mean prefers X (−2.1 per instance), BT prefers Y (wins 90%).
    const n = 200;
    const rng = mulberry32(9);
    const base = Array.from({ length: n }, () => rng.nextNormal());
    const t: ScoreTable = {
      systems: ['X', 'Y'],
      instances: base.map((_, i) => String(i)),
      scores: [base, base.map((x, i) => (i % 10 === 0 ? x - 30 : x + 1))],
    };
    const a = analyseSystems(t, fast);
    const [x, y] = a.systems;
    expect(x?.cluster.mean).toBe(1);
    expect(y?.cluster.mean).toBe(2);
    expect(y?.cluster.bt).toBe(1);
    expect(x?.cluster.bt).toBe(2);
    expect(a.disagreements).toEqual([{ a: 'X', b: 'Y', mean: '>', median: expect.any(String), bt: '<' }]);
    expect(x?.cluster_disagreement).toBe(true);
  });

  it('runs corpus-level bootstrap and AR from sufficient statistics with the same resamples as the mean tests', () => {
    // corpus score = Σ x / Σ 1 is the mean, so the corpus tests must reproduce the mean tests
    const t = synthetic(3, 40, 11);
    const stats = t.scores.map((row) => row.map((x) => [x, 1]));
    const a = analyseSystems(t, { ...fast, corpus: { stats, corpusFromStats: (rows) => defined(rows[0]?.[0], 'stat 0') / defined(rows[0]?.[1], 'stat 1') } });
    a.systems.forEach((s) => expect(s.corpus).toBeCloseTo(s.mean, 12));
    for (const p of a.pairs) {
      expect(p.tests.bootstrap_corpus?.p).toBeCloseTo(p.tests.bootstrap.p, 12);
      expect(p.tests.ar_corpus?.p).toBeCloseTo(p.tests.ar.p, 12);
      expect(p.p_adjusted.bootstrap_corpus).toBeCloseTo(p.p_adjusted.bootstrap ?? NaN, 12);
    }
  });

  it('uses the same correction over all pairs: Holm-adjusted p ≥ raw p, "none" leaves them', () => {
    const t = synthetic(5, 40, 10);
    const holm = analyseSystems(t, { ...fast, correction: 'holm' });
    const none = analyseSystems(t, { ...fast, correction: 'none' });
    holm.pairs.forEach((p, q) => {
      expect(p.p_adjusted.ttest).toBeGreaterThanOrEqual(p.tests.ttest.p);
      expect(none.pairs[q]?.p_adjusted.ttest).toBe(p.tests.ttest.p);
    });
  });

  it('rejects tables with fewer than two systems or bad options', () => {
    expect(() => analyseSystems({ systems: ['A'], instances: ['1'], scores: [[1]] })).toThrow(RankingInputError);
    expect(() => analyseSystems(FIG1, { alpha: 2 })).toThrow(/alpha/);
    expect(() => analyseSystems(FIG1, { resamples: 0 })).toThrow(/resamples/);
  });
});

describe('buildScoreTable', () => {
  it('pivots long rows in first-seen order', () => {
    const t = buildScoreTable([
      { system: 'B', instance: 'x', score: 1 },
      { system: 'A', instance: 'x', score: 2 },
      { system: 'A', instance: 'y', score: 3 },
      { system: 'B', instance: 'y', score: 4 },
    ]);
    expect(t).toEqual({ systems: ['B', 'A'], instances: ['x', 'y'], scores: [[1, 4], [2, 3]] });
  });

  it('names the missing (system, instance) cells', () => {
    expect(() =>
      buildScoreTable([
        { system: 'A', instance: '1', score: 1 },
        { system: 'A', instance: '2', score: 1 },
        { system: 'B', instance: '1', score: 1 },
      ]),
    ).toThrow('1 missing (system, instance) cell(s): (B, 2)');
  });

  it('rejects duplicate cells and non-finite scores', () => {
    expect(() => buildScoreTable([{ system: 'A', instance: '1', score: 1 }, { system: 'A', instance: '1', score: 2 }])).toThrow(/duplicate.*\(A, 1\)/);
    expect(() => buildScoreTable([{ system: 'A', instance: '1', score: NaN }])).toThrow(/not a finite number/);
  });
});
