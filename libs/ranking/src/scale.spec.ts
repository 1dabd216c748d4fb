import { analyseSystems, budgetedResamples, PER_PAIR_RESAMPLE_COST, recommendedResamples, RESAMPLE_WORK_BUDGET } from './analyse';
import { mulberry32 } from './prng';
import { instancesPerOrder } from './rating-systems';
import type { ScoreTable } from './score-table';

// docs/adr/0009-leaderboard-analysis-at-scale.md: the fast paths must not change what small
// boards get, and what large boards get must be plain, cloneable data.

/** Five systems (names not in sorted order), 90 instances (ids not in sorted order), BLEU-like (matches, length) statistics. */
function board(): { table: ScoreTable; rows: number[][][] } {
  const rng = mulberry32(17);
  const quality = [0.5, 0.9, 0.7, 0.68, 0.3];
  const n = 90;
  const rows = quality.map((q) => Array.from({ length: n }, () => {
    const len = 4 + rng.nextInt(12);
    let m = 0;
    for (let t = 0; t < len; t++) if (rng.next() < q) m++;
    return [m, len];
  }));
  return {
    table: {
      systems: ['v', 'w', 'x', 'y', 'z'].reverse(),
      instances: Array.from({ length: n }, (_, i) => `seg-${(i * 37) % n}`),
      scores: rows.map((r) => r.map(([m, len]) => Math.round((100 * (m ?? 0)) / (len ?? 1)) / 100)),
    },
    rows,
  };
}
const ratio = (rows: number[][]): number => (rows[0]?.[0] ?? NaN) / (rows[0]?.[1] ?? NaN);
const flat = (rows: number[][][], make: (len: number) => Float64Array | Int32Array) => ({
  width: 2,
  data: rows.map((r) => {
    const out = make(r.length * 2);
    r.forEach(([m, len], l) => {
      out[2 * l] = m ?? NaN;
      out[2 * l + 1] = len ?? NaN;
    });
    return out;
  }),
});

describe('flat corpus statistics', () => {
  const { table, rows } = board();
  const options = { resamples: 400, seed: 3, eloOrders: 3 };
  const fromRows = analyseSystems(table, { ...options, corpus: { stats: rows, corpusFromStats: ratio } });

  it('give exactly the analysis of the same statistics as rows (Float64Array and Int32Array, read in place)', () => {
    const f64 = analyseSystems(table, { ...options, corpus: { stats: flat(rows, (len) => new Float64Array(len)), corpusFromStats: ratio } });
    const i32 = analyseSystems(table, { ...options, corpus: { stats: flat(rows, (len) => new Int32Array(len)), corpusFromStats: ratio } });
    expect(fromRows.systems[0]?.corpus).toBeGreaterThan(0);
    expect(f64).toEqual(fromRows);
    expect(i32).toEqual(fromRows);
  });

  it('refuse flat statistics that do not cover every instance', () => {
    const short = { width: 2, data: rows.map(() => new Float64Array(10)) };
    expect(() => analyseSystems(table, { ...options, corpus: { stats: short, corpusFromStats: ratio } })).toThrow(/cover 5 instances, expected 90/);
  });

  it('survive a structured clone with their buffers transferred, as to and from a worker thread', () => {
    const stats = flat(rows, (len) => new Float64Array(len));
    const buffers = stats.data.map((d) => d.buffer).filter((b): b is ArrayBuffer => Object.prototype.toString.call(b) === '[object ArrayBuffer]'); // not instanceof: Jest's realm
    expect(buffers).toHaveLength(5);
    const message = structuredClone({ table, stats }, { transfer: buffers });
    expect(stats.data[0]?.length).toBe(0); // transferred, not copied
    const inWorker = analyseSystems(message.table, { ...options, corpus: { stats: message.stats, corpusFromStats: ratio } });
    expect(structuredClone(inWorker)).toEqual(fromRows);
  });
});

describe('work budget of the automatic resample count', () => {
  it('keeps the recommended count on boards within the budget (demo 13 × 506, 11 × 3,004)', () => {
    expect(budgetedResamples(78, 0.05, 'holm', 13, 506)).toBe(recommendedResamples(78, 0.05, 'holm'));
    expect(budgetedResamples(78, 0.05, 'holm', 13, 506)).toBe(16000);
    expect(budgetedResamples(55, 0.05, 'holm', 11, 3004)).toBe(11000);
  });

  it('limits resamples × systems × instances to the budget above it, never below 200', () => {
    expect(RESAMPLE_WORK_BUDGET).toBe(2e9);
    expect(budgetedResamples(190, 0.05, 'holm', 20, 5000)).toBe(18700); // recommended 38,000: 2e9 / (100,000 + 16·400) cells
    expect(budgetedResamples(1225, 0.05, 'holm', 50, 10000)).toBe(3700); // recommended 100,000: 2e9 / (500,000 + 16·2,500)
    expect(budgetedResamples(4950, 0.05, 'holm', 100, 10000)).toBe(1700);
    // Many systems on few instances: the per-pair cost of a resample dominates (100,000 without it).
    expect(budgetedResamples(4950, 0.05, 'holm', 100, 200)).toBe(11100);
    expect(budgetedResamples(4950, 0.05, 'holm', 100, 100000)).toBe(200);
    expect(budgetedResamples(4950, 0.05, 'holm', 100, 1000000)).toBe(200);
  });

  it('records the recommended count and says in words that the budget chose fewer', () => {
    const { table } = board();
    const a = analyseSystems(table, { resampleBudget: (5 * 90 + PER_PAIR_RESAMPLE_COST * 5 * 5) * 300, eloOrders: 2 });
    expect(a.settings.resamples).toBe(300);
    expect(a.settings.resamples_recommended).toBe(recommendedResamples(10, 0.05, 'holm'));
    expect(a.settings.warnings.join(' ')).toMatch(/limited to 300 \(instead of 2000\)/);
    expect(a.settings.smallest_reachable_p).toBeCloseTo(10 / 301, 12);
    const given = analyseSystems(table, { resamples: 300, eloOrders: 2 });
    expect(given.settings.resamples_recommended).toBeUndefined();
    expect(given.pairs).toEqual(a.pairs); // same resamples, same seed: same numbers
  });
});

describe('tests computed per pair', () => {
  const { table } = board();
  const all = analyseSystems(table, { resamples: 300, eloOrders: 2 });

  it('computes all six by default on small boards', () => {
    expect(all.settings.skipped_tests).toBeUndefined();
    expect(Object.keys(all.pairs[0]?.p_adjusted ?? {}).sort()).toEqual(['ar', 'bootstrap', 'mood', 'sign', 'ttest', 'wilcoxon']);
  });

  it('skips the tests not asked for (NaN, no corrected p) but always computes the cluster tests', () => {
    const some = analyseSystems(table, { resamples: 300, eloOrders: 2, pairTests: ['ttest'] });
    expect(some.settings.skipped_tests).toEqual(['wilcoxon', 'bootstrap', 'ar']);
    expect(Object.keys(some.pairs[0]?.p_adjusted ?? {}).sort()).toEqual(['mood', 'sign', 'ttest']);
    some.pairs.forEach((p, q) => {
      const full = all.pairs[q];
      expect(p.tests.wilcoxon.p).toBeNaN();
      expect(p.tests.ar.p).toBeNaN();
      expect(p.tests.ttest).toEqual(full?.tests.ttest);
      expect(p.tests.mood).toEqual(full?.tests.mood);
      expect(p.median_diff).toBe(full?.median_diff);
    });
    expect(some.systems).toEqual(all.systems);
  });
});

describe('Elo and TrueSkill game budget per order', () => {
  it('plays every instance up to 10⁷ games per order, a random subset of ⌊10⁷ / pairs⌋ above', () => {
    expect(instancesPerOrder(20, 5000)).toBe(5000);
    expect(instancesPerOrder(50, 8000)).toBe(8000); // 9.8·10⁶ games
    expect(instancesPerOrder(50, 10000)).toBe(8163);
    expect(instancesPerOrder(100, 100000)).toBe(2020);
  });
});
