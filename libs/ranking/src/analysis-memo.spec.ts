import { analyseSystems, corpusStatsNeeded, type AnalyseOptions, type Analysis } from './analyse';
import { emptyAnalysisMemo, type AnalysisMemo, type MemoUse } from './analysis-memo';
import { fillAnalysisMemo, type MemoFill } from './memo-fill';
import { mulberry32 } from './prng';

// Issue #28: an analysis that reuses a memo of the previous one must be the analysis from
// scratch, bit for bit (toStrictEqual tells −0 from +0 and compares NaN as NaN), with the seeded
// bootstrap, randomisation, clusters and corpus resampling included.

interface Board {
  systems: string[];
  instances: string[];
  scores: number[][];
  stats: Float64Array[];
}

/** k systems on n instances (ids deliberately not in sorted order), scores rounded so that ties occur; width-w corpus statistics. */
function board(k: number, n: number, w: number, seed = 7): Board {
  const rng = mulberry32(seed);
  const difficulty = Array.from({ length: n }, () => rng.nextNormal());
  const instances = Array.from({ length: n }, (_, i) => `i${(i * 7919) % 10007}`);
  const systems = Array.from({ length: k }, (_, s) => `sys-${String.fromCharCode(97 + ((s * 5) % 26))}${s}`);
  const scores = systems.map((_, s) => difficulty.map((d) => Math.round((d + 0.1 * s + rng.nextNormal()) * 4) / 4));
  const stats = scores.map((row) => {
    const f = new Float64Array(n * w);
    row.forEach((v, l) => {
      for (let c = 0; c < w; c++) f[l * w + c] = Math.max(0, Math.round(10 + v * (c + 1) + (c % 3)));
    });
    return f;
  });
  return { systems, instances, scores, stats };
}

const corpusFromStats = (rows: number[][]): number => {
  const sum = rows[0] ?? [];
  let a = 0;
  let b = 0;
  sum.forEach((v, c) => (c % 2 === 0 ? (a += v) : (b += v)));
  return (100 * a) / Math.max(1, a + b);
};

function analyse(b: Board, pick: number[], options: AnalyseOptions, memo?: AnalysisMemo, onMemoUse?: (u: MemoUse) => void): Analysis {
  const w = (b.stats[0]?.length ?? 0) / b.instances.length;
  return analyseSystems(
    { systems: pick.map((s) => b.systems[s] ?? ''), instances: b.instances, scores: pick.map((s) => b.scores[s] ?? []), higherIsBetter: true },
    {
      ...options,
      corpus: { stats: { width: w, data: pick.map((s) => b.stats[s] ?? new Float64Array(0)) }, corpusFromStats, ar: false },
      ...(memo ? { memo, fingerprints: pick.map((s) => JSON.stringify([b.scores[s], b.systems[s]])), ...(onMemoUse ? { onMemoUse } : {}) } : {}),
    },
  );
}

const options: AnalyseOptions = { seed: 99, resamples: 120, eloOrders: 3 };
const range = (a: number, z: number) => Array.from({ length: z - a }, (_, i) => a + i);

describe('analysis memo (incremental boards)', () => {
  it.each([10, 4])('adds one system at a time and matches the analysis from scratch (corpus width %i)', (w) => {
    const b = board(7, 60, w);
    const memo = emptyAnalysisMemo();
    const uses: MemoUse[] = [];
    for (let k = 2; k <= 7; k++) {
      const incremental = analyse(b, range(0, k), options, memo, (u) => uses.push(u));
      expect(incremental).toStrictEqual(analyse(b, range(0, k), options));
    }
    // the last analysis computed one system and its six pairs, and updated the kept wins
    expect(uses.at(-1)).toEqual({ systemsReused: 6, systemsComputed: 1, pairsReused: 15, pairsComputed: 6 });
    // pairs with ties kept their resampled tied counts (read by the next analysis instead of the tie groups)
    const tied = [...memo.pairs.values()].filter((p) => p.tied !== undefined);
    expect(tied.length).toBeGreaterThan(0);
    for (const p of tied) expect(p.tied).toHaveLength(options.resamples ?? 0);
  });

  it('adds three systems at once (their 24 tied pairs counted by instance) and matches the analysis from scratch', () => {
    const b = board(10, 80, 4, 11);
    const memo = emptyAnalysisMemo();
    const uses: MemoUse[] = [];
    analyse(b, range(0, 7), options, memo);
    expect(analyse(b, range(0, 10), options, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, range(0, 10), options));
    expect(uses.at(-1)).toEqual({ systemsReused: 7, systemsComputed: 3, pairsReused: 21, pairsComputed: 24 });
  });

  it('reads a kept pair’s memoisable test outcomes (t-test, Wilcoxon, Mood) and the kept randomisation sums instead of recomputing them', () => {
    const b = board(4, 40, 4);
    const memo = emptyAnalysisMemo();
    analyse(b, range(0, 3), options, memo);
    // The registry tests that declare `memoisable` are kept per pair; mark them and the AR sums so
    // that reading them shows in the next analysis (a recomputation would give the fresh values).
    for (const kept of memo.pairs.values()) {
      expect(Object.keys(kept.outcomes).sort()).toEqual(['mood', 'ttest', 'wilcoxon']);
      kept.outcomes['ttest'] = { statistic: 1.5, p: 0.123, direction: 1 };
    }
    // all-zero swapped sums: every trial exceeds the observed difference, so p = (R + 1)/(R + 1) = 1
    for (const kept of memo.systems.values()) kept.arSums.fill(0);
    const fresh = analyse(b, range(0, 4), options);
    const marked = analyse(b, range(0, 4), options, memo);
    const keptPair = (a: string, z: string) => [a, z].every((s) => b.systems.indexOf(s) < 3);
    expect(marked.pairs.filter((p) => keptPair(p.a, p.b))).toHaveLength(3);
    marked.pairs.forEach((p, q) => {
      const f = fresh.pairs[q];
      if (keptPair(p.a, p.b)) {
        expect(p.tests.ttest).toEqual({ statistic: 1.5, p: 0.123 });
        expect(f?.tests.ar.p).not.toBe(1);
        expect(p.tests.ar.p).toBe(1);
      } else {
        // a new pair is computed (its AR p reads the kept system's marked sums too, so it is not compared)
        expect(p.tests.ttest).toEqual(f?.tests.ttest);
      }
      expect(p.tests.wilcoxon).toEqual(f?.tests.wilcoxon);
      expect(p.tests.sign).toEqual(f?.tests.sign);
    });
  });

  it('matches after a system leaves, a row changes and the seed changes', () => {
    const b = board(6, 50, 10, 3);
    const memo = emptyAnalysisMemo();
    const uses: MemoUse[] = [];
    analyse(b, range(0, 6), options, memo);
    // system 2 leaves (e.g. no longer primary)
    expect(analyse(b, [0, 1, 3, 4, 5], options, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, [0, 1, 3, 4, 5], options));
    expect(uses.at(-1)).toMatchObject({ systemsReused: 5, pairsReused: 10 });
    // system 4 is rescored: its row changes, so its fingerprint does
    const rescored: Board = { ...b, scores: b.scores.map((row, s) => (s === 4 ? row.map((v) => v + 0.25) : row)) };
    expect(analyse(rescored, [0, 1, 3, 4, 5], options, memo, (u) => uses.push(u))).toStrictEqual(analyse(rescored, [0, 1, 3, 4, 5], options));
    expect(uses.at(-1)).toMatchObject({ systemsReused: 4, systemsComputed: 1, pairsComputed: 4 });
    // another seed is another context: nothing is reused, the result is still the same
    const other = { ...options, seed: 5 };
    expect(analyse(rescored, [0, 1, 3, 4, 5], other, memo, (u) => uses.push(u))).toStrictEqual(analyse(rescored, [0, 1, 3, 4, 5], other));
    expect(uses.at(-1)).toMatchObject({ systemsReused: 0, pairsReused: 0 });
  });

  it('reuses kept columns as far as they reach when the resample count grows or shrinks', () => {
    const b = board(5, 40, 10, 13);
    const memo = emptyAnalysisMemo();
    const uses: MemoUse[] = [];
    analyse(b, range(0, 4), { ...options, resamples: 80 }, memo);
    // more resamples and one more system: the first 80 resamples of the kept systems are reused
    expect(analyse(b, range(0, 5), { ...options, resamples: 130 }, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, range(0, 5), { ...options, resamples: 130 }));
    expect(uses.at(-1)).toMatchObject({ systemsReused: 4, pairsReused: 6 });
    // fewer resamples: a prefix of the kept columns
    expect(analyse(b, range(0, 5), { ...options, resamples: 50 }, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, range(0, 5), { ...options, resamples: 50 }));
    expect(uses.at(-1)).toMatchObject({ systemsReused: 5, pairsReused: 10 });
  });

  it('prices the automatic resample count for budgetSystems, so a board still being filled keeps the final board\'s columns', () => {
    const b = board(6, 40, 4, 17);
    // A budget that gives 4 systems more resamples than 6: (4·40 + 16·16)·R ≤ 416,000 → R = 1000; 6 systems: (240 + 576)·R → 500.
    const auto: AnalyseOptions = { seed: 3, eloOrders: 2, resampleBudget: 416_000 };
    const four = analyse(b, range(0, 4), auto);
    const six = analyse(b, range(0, 6), auto);
    expect(four.settings.resamples).toBe(1000);
    expect(six.settings.resamples).toBe(500);
    // Priced for the 6 systems the board will have: the 6-system count, and the board says why.
    const memo = emptyAnalysisMemo();
    const priced = analyse(b, range(0, 4), { ...auto, budgetSystems: 6 }, memo);
    expect(priced.settings.resamples).toBe(500);
    expect(priced.settings.warnings.join(' ')).toContain('for the 6 systems the board will have');
    // The 6-system analysis then reuses the kept columns whole and is the analysis from scratch.
    const uses: MemoUse[] = [];
    expect(analyse(b, range(0, 6), auto, memo, (u) => uses.push(u))).toStrictEqual(six);
    expect(uses.at(-1)).toMatchObject({ systemsReused: 4, systemsComputed: 2 });
    // No effect at or below the table's systems, or with an explicit count; refused when not a count.
    expect(analyse(b, range(0, 4), { ...auto, budgetSystems: 4 })).toStrictEqual(four);
    expect(analyse(b, range(0, 4), { ...auto, budgetSystems: 2 })).toStrictEqual(four);
    expect(analyse(b, range(0, 4), { ...options, budgetSystems: 6 })).toStrictEqual(analyse(b, range(0, 4), options));
    expect(() => analyse(b, range(0, 4), { ...auto, budgetSystems: 2.5 })).toThrow('budgetSystems must be a non-negative integer');
  });

  it('matches with the automatic resample count and an explicit test', () => {
    const b = board(5, 40, 10, 11);
    const memo = emptyAnalysisMemo();
    const auto: AnalyseOptions = { seed: 1, eloOrders: 2, resampleBudget: 200_000, test: 'wilcoxon' };
    analyse(b, range(0, 4), auto, memo);
    expect(analyse(b, range(0, 5), auto, memo)).toStrictEqual(analyse(b, range(0, 5), auto));
  });

  it('needs no corpus statistics of the systems whose corpus columns and totals the memo holds, and gives the same analysis without them', () => {
    const b = board(6, 50, 10, 5);
    const memo = emptyAnalysisMemo();
    const pick = range(0, 6);
    const table = { systems: pick.map((s) => b.systems[s] ?? ''), instances: b.instances, higherIsBetter: true };
    const fingerprints = pick.map((s) => JSON.stringify([b.scores[s], b.systems[s]]));
    const withStats = (data: Float64Array[], ar = false): AnalyseOptions => ({ ...options, corpus: { stats: { width: 10, data }, corpusFromStats, ar }, memo, fingerprints });
    // nothing kept yet: every system's statistics are read
    expect(corpusStatsNeeded(table, withStats([]))).toEqual([true, true, true, true, true, true]);
    analyse(b, range(0, 5), options, memo);
    // the five analysed systems are served whole; the sixth is new; with the corpus AR every system is read
    expect(corpusStatsNeeded(table, withStats([]))).toEqual([false, false, false, false, false, true]);
    expect(corpusStatsNeeded(table, withStats([], true))).toEqual([true, true, true, true, true, true]);
    // more resamples than the memo's columns hold: read again (the corpus sums of the rest need them)
    expect(corpusStatsNeeded(table, { ...withStats([]), resamples: (options.resamples ?? 0) + 1 })).toEqual([true, true, true, true, true, true]);
    const needed = corpusStatsNeeded(table, withStats([]));
    const sparse = pick.map((s, i) => (needed[i] ? (b.stats[s] ?? new Float64Array(0)) : new Float64Array(0)));
    const copy = structuredClone(memo);
    const scratch = analyse(b, pick, options);
    expect(analyseSystems({ ...table, scores: pick.map((s) => b.scores[s] ?? []) }, withStats(sparse))).toStrictEqual(scratch);
    // a system left without statistics that the memo does not serve is refused, not ranked on nothing
    const missingNew = pick.map((s, i) => (i === 5 ? new Float64Array(0) : (b.stats[s] ?? new Float64Array(0))));
    expect(() => analyseSystems({ ...table, scores: pick.map((s) => b.scores[s] ?? []) }, { ...withStats(missingNew), memo: copy })).toThrow(
      /corpus statistics for system sys-\w+ are missing, and the memo does not hold its corpus columns/,
    );
  });

  it('decides Wilcoxon for every pair by the pairs budgetSystems will have, so the memo keeps its context as systems arrive', () => {
    const b = board(4, 40, 4, 3);
    // 4 systems × 40 instances: far below the cell limit, Wilcoxon runs for every pair
    expect(analyse(b, range(0, 4), options).settings.skipped_tests ?? []).not.toContain('wilcoxon');
    // priced for 1,600 systems (1,279,200 pairs × 40 instances > 5 · 10⁷): left out, as on that board
    const early = analyse(b, range(0, 4), { ...options, budgetSystems: 1600 });
    expect(early.settings.skipped_tests).toContain('wilcoxon');
    expect(early.pairs[0]?.tests.wilcoxon.p).toBeNaN();
  });

  describe('filled ahead of the analysis (fillAnalysisMemo)', () => {
    const fingerprintsOf = (b: Board, pick: number[]) => pick.map((s) => JSON.stringify([b.scores[s], b.systems[s]]));
    const fill = (b: Board, pick: number[], opts: AnalyseOptions, memo: AnalysisMemo, stats?: (s: number, i: number) => Float64Array, systemsAtMost?: number): MemoFill => {
      const w = (b.stats[0]?.length ?? 0) / b.instances.length;
      return fillAnalysisMemo(
        { systems: pick.map((s) => b.systems[s] ?? ''), instances: b.instances, scores: pick.map((s) => b.scores[s] ?? []), higherIsBetter: true },
        { ...opts, corpus: { stats: { width: w, data: pick.map((s, i) => (stats ? stats(s, i) : (b.stats[s] ?? new Float64Array(0)))) }, corpusFromStats, ar: false }, memo, fingerprints: fingerprintsOf(b, pick), ...(systemsAtMost === undefined ? {} : { systemsAtMost }) },
      );
    };

    it.each([10, 4])('serves the analysis whole after filling as systems arrive, and the analysis equals the one from scratch (corpus width %i)', (w) => {
      const b = board(7, 60, w, 21);
      const memo = emptyAnalysisMemo();
      const fills: MemoUse[] = [];
      for (let k = 2; k <= 7; k++) fills.push(fill(b, range(0, k), options, memo));
      // each fill computed the one system and the pairs it brought
      expect(fills.at(-1)).toEqual({ systemsReused: 6, systemsComputed: 1, pairsReused: 15, pairsComputed: 6, systemsLeft: 0 });
      expect([...memo.pairs.values()].some((p) => p.tied?.length === options.resamples)).toBe(true);
      const uses: MemoUse[] = [];
      expect(analyse(b, range(0, 7), options, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, range(0, 7), options));
      expect(uses.at(-1)).toEqual({ systemsReused: 7, systemsComputed: 0, pairsReused: 21, pairsComputed: 0 });
      // nothing left to fill
      expect(fill(b, range(0, 7), options, memo)).toEqual({ systemsReused: 7, systemsComputed: 0, pairsReused: 21, pairsComputed: 0, systemsLeft: 0 });
    });

    it('fills a few systems at a time (systemsAtMost), each call leaving the pairs of the systems it left, and ends with the memo filled at once', () => {
      const b = board(7, 50, 10, 37);
      const atOnce = emptyAnalysisMemo();
      analyse(b, range(0, 3), options, atOnce);
      const inSteps = emptyAnalysisMemo();
      analyse(b, range(0, 3), options, inSteps);
      fill(b, range(0, 7), options, atOnce);
      const steps: MemoFill[] = [];
      do steps.push(fill(b, range(0, 7), options, inSteps, undefined, 2));
      while ((steps.at(-1)?.systemsLeft ?? 0) > 0 && steps.length < 10);
      // 4 systems lacking: 2, then 2; the first call's pairs: its 2 against the 3 kept and each other
      expect(steps.map((u) => [u.systemsComputed, u.pairsComputed, u.systemsLeft])).toEqual([[2, 7, 2], [2, 11, 0]]);
      expect(inSteps.context).toBe(atOnce.context);
      expect([...inSteps.systems.keys()].sort()).toEqual([...atOnce.systems.keys()].sort());
      expect([...inSteps.pairs.keys()].sort()).toEqual([...atOnce.pairs.keys()].sort());
      for (const [key, m] of atOnce.systems) expect(inSteps.systems.get(key)).toStrictEqual(m);
      for (const [key, m] of atOnce.pairs) expect(inSteps.pairs.get(key)).toStrictEqual(m);
      expect(analyse(b, range(0, 7), options, inSteps)).toStrictEqual(analyse(b, range(0, 7), options));
      expect(() => fill(b, range(0, 7), options, emptyAnalysisMemo(), undefined, 0)).toThrow(/systemsAtMost must be a positive integer/);
    });

    it('fills what an analysis left, reading only the statistics of the systems it adds', () => {
      const b = board(6, 50, 10, 23);
      const memo = emptyAnalysisMemo();
      analyse(b, range(0, 4), options, memo);
      // the kept systems' statistics are left out, as a board leaves them
      expect(fill(b, range(0, 6), options, memo, (s, i) => (i < 4 ? new Float64Array(0) : (b.stats[s] ?? new Float64Array(0))))).toEqual({
        systemsReused: 4,
        systemsComputed: 2,
        pairsReused: 6,
        pairsComputed: 9,
        systemsLeft: 0,
      });
      const table = { systems: range(0, 6).map((s) => b.systems[s] ?? ''), instances: b.instances, scores: range(0, 6).map((s) => b.scores[s] ?? []), higherIsBetter: true };
      const withoutStats = { ...options, corpus: { stats: { width: 10, data: range(0, 6).map(() => new Float64Array(0)) }, corpusFromStats, ar: false }, memo, fingerprints: fingerprintsOf(b, range(0, 6)) };
      // every system is served: the analysis needs no statistics at all, and equals the one from scratch
      expect(corpusStatsNeeded(table, withoutStats)).toEqual([false, false, false, false, false, false]);
      expect(analyseSystems(table, withoutStats)).toStrictEqual(analyse(b, range(0, 6), options));
    });

    it('fills in the context of the board to come (budgetSystems), and another context empties the memo first', () => {
      const b = board(6, 40, 4, 29);
      const auto: AnalyseOptions = { seed: 3, eloOrders: 2, resampleBudget: 416_000 };
      const memo = emptyAnalysisMemo();
      fill(b, range(0, 4), { ...auto, budgetSystems: 6 }, memo);
      expect([...memo.systems.values()].every((m) => m.mean.length === 500)).toBe(true);
      const uses: MemoUse[] = [];
      expect(analyse(b, range(0, 6), auto, memo, (u) => uses.push(u))).toStrictEqual(analyse(b, range(0, 6), auto));
      expect(uses.at(-1)).toMatchObject({ systemsReused: 4, systemsComputed: 2, pairsReused: 6 });
      expect(fill(b, range(0, 6), { ...auto, seed: 4 }, memo)).toMatchObject({ systemsReused: 0, pairsReused: 0 });
    });

    it('refuses a system it must fill whose statistics are missing', () => {
      const b = board(3, 30, 4, 31);
      expect(() => fill(b, range(0, 3), options, emptyAnalysisMemo(), (s, i) => (i === 1 ? new Float64Array(0) : (b.stats[s] ?? new Float64Array(0))))).toThrow(
        /corpus statistics for system sys-\w+ are missing, and the memo does not hold its corpus columns/,
      );
    });
  });
});
