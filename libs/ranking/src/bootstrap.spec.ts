import { defined } from '../../../test/support/defined';
import { bootstrapAggregates, compactStats, pairTieSource, pairwiseCounts, pairwiseCountsKept, sortByScoreThenSystem, sufficientFromWins, tiedInstances, weightedRowSums } from './bootstrap';
import { countWins, fitBradleyTerry, fitBradleyTerrySufficient } from './bradley-terry';
import { mean, median } from './descriptive';
import { mulberry32 } from './prng';

// docs/adr/0003: reweighting per-instance statistics by multinomial counts must give exactly the
// statistics of the materialised resample (same draws: n × nextInt(n) from mulberry32(seed)).
describe('shared-weights bootstrap engine', () => {
  const k = 5;
  const n = 41;
  const rng = mulberry32(3);
  const x = Array.from({ length: k }, (_, s) => Float64Array.from({ length: n }, () => rng.nextInt(7) + 0.3 * s)); // ties
  const pc = pairwiseCounts(x);
  const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? NaN) - (row[b] ?? NaN)));
  const opts = { tolerance: 1e-15, maxIterations: 100000 };
  const suff = sufficientFromWins(pc.wins, k);
  const point = fitBradleyTerrySufficient(suff.W, suff.N, k, opts);
  const R = 4;
  const boot = bootstrapAggregates(x, pc, sortIdx, point.strengths, R, 21, opts);

  it('matches mean, median and BT refitted on the materialised resamples', () => {
    const draw = mulberry32(21);
    for (let r = 0; r < R; r++) {
      const idx = Array.from({ length: n }, () => draw.nextInt(n));
      const scores = x.map((row) => idx.map((l) => row[l] ?? NaN));
      const bt = fitBradleyTerry(countWins({ systems: ['a', 'b', 'c', 'd', 'e'], instances: idx.map(String).map((v, q) => `${v}#${q}`), scores }), {
        ...opts,
        throwOnNonConvergence: false,
      });
      for (let i = 0; i < k; i++) {
        expect(boot.bMean[r * k + i]).toBeCloseTo(mean(defined(scores[i], 'scores[i]')), 12);
        expect(boot.bMedian[r * k + i]).toBe(median(defined(scores[i], 'scores[i]')));
        expect(boot.bBt[r * k + i]).toBeCloseTo((bt.strengths[i] ?? NaN), 6); // both stop at ‖Δλ‖² < 1e-15 from different starts
      }
    }
  });

  it('gives each system its wins and ties on the materialised resamples (the mean win rate\'s win points)', () => {
    // scores 0, 1 or 2: many ties between systems (the table above has none across systems)
    const tieRng = mulberry32(8);
    const xt = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => tieRng.nextInt(3)));
    const pct = pairwiseCounts(xt);
    const sortT = xt.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? NaN) - (row[b] ?? NaN)));
    const st = sufficientFromWins(pct.wins, k);
    const bt = bootstrapAggregates(xt, pct, sortT, fitBradleyTerrySufficient(st.W, st.N, k, opts).strengths, R, 21, opts);
    const draw = mulberry32(21);
    let tiesSeen = 0;
    for (let r = 0; r < R; r++) {
      const idx = Array.from({ length: n }, () => draw.nextInt(n));
      for (let i = 0; i < k; i++) {
        // straight from the definition: every drawn instance, every other system
        let wins = 0;
        let ties = 0;
        for (const l of idx) {
          for (let j = 0; j < k; j++) {
            if (j === i) continue;
            const [a, b] = [xt[i]?.[l] ?? NaN, xt[j]?.[l] ?? NaN];
            if (a > b) wins++;
            else if (a === b) ties++;
          }
        }
        tiesSeen += ties;
        expect([bt.bWins[r * k + i], bt.bTies[r * k + i]]).toEqual([wins, ties]);
      }
    }
    expect(tiesSeen).toBeGreaterThan(0);
  });

  it('counts ties once per pair so that N_ij = ω_ij + ω_ji', () => {
    for (let i = 0; i < k; i++)
      for (let j = i + 1; j < k; j++) {
        expect(tiedInstances(pc, i, j) + (pc.wins[i * k + j] ?? NaN) + (pc.wins[j * k + i] ?? NaN)).toBe(n);
      }
  });
});

// Many ties, in groups of up to all five systems: the per-instance tie groups (memory O(k·n))
// must give the same N_ij as counting tied instances pair by pair.
describe('shared-weights bootstrap with tie groups', () => {
  const k = 5;
  const n = 60;
  const rng = mulberry32(8);
  const x = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.nextInt(3)));
  const pc = pairwiseCounts(x);

  it('stores every tied (pair, instance) cell once', () => {
    for (let i = 0; i < k; i++)
      for (let j = i + 1; j < k; j++) {
        let direct = 0;
        for (let l = 0; l < n; l++) if (x[i]?.[l] === x[j]?.[l]) direct++;
        expect(direct).toBeGreaterThan(5);
        expect(tiedInstances(pc, i, j)).toBe(direct);
        expect(direct + (pc.wins[i * k + j] ?? NaN) + (pc.wins[j * k + i] ?? NaN)).toBe(n);
      }
  });

  it('refits BT on resampled win counts equal to those of the materialised resample', () => {
    const opts = { tolerance: 1e-15, maxIterations: 100000 };
    const suff = sufficientFromWins(pc.wins, k);
    const point = fitBradleyTerrySufficient(suff.W, suff.N, k, opts);
    const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? NaN) - (row[b] ?? NaN)));
    const R = 5;
    const boot = bootstrapAggregates(x, pc, sortIdx, point.strengths, R, 4, opts);
    const draw = mulberry32(4);
    for (let r = 0; r < R; r++) {
      const idx = Array.from({ length: n }, () => draw.nextInt(n));
      const scores = x.map((row) => idx.map((l) => row[l] ?? NaN));
      const bt = fitBradleyTerry(countWins({ systems: ['a', 'b', 'c', 'd', 'e'], instances: idx.map((v, q) => `${v}#${q}`), scores }), { ...opts, throwOnNonConvergence: false });
      for (let i = 0; i < k; i++) expect(boot.bBt[r * k + i]).toBeCloseTo((bt.strengths[i] ?? NaN), 6);
    }
  });
});

// Issue #28: with most pairs' wins kept by a memo, the counts come from each instance's sorted
// scores and the kept wins; they must be the sweep's, integer for integer and list for list.
describe('pairwise counts from kept wins (pairwiseCountsKept)', () => {
  it.each([
    ['many ties, −0 and +0', 6, 300, (r: ReturnType<typeof mulberry32>, s: number) => (r.nextInt(4) === 0 ? (s % 2 === 0 ? -0 : 0) : r.nextInt(3))],
    ['few ties, one system far behind (short win lists)', 7, 500, (r: ReturnType<typeof mulberry32>, s: number) => (s === 6 ? r.next() - 2 + (r.nextInt(200) === 0 ? 5 : 0) : r.next() + 0.01 * s)],
    ['300 systems (16-bit beats counts)', 300, 40, (r: ReturnType<typeof mulberry32>) => r.nextInt(50)],
  ])('equals the sweep: %s', (_, k, n, value) => {
    const rng = mulberry32(k * 31 + n);
    const x = Array.from({ length: k }, (_, s) => Float64Array.from({ length: n }, () => value(rng, s)));
    const swept = pairwiseCounts(x);
    // every other pair's wins kept (both orders of asking), the rest counted
    const kept = pairwiseCountsKept(x, (i, j) => ((i + j) % 2 === 0 ? [swept.wins[i * k + j] ?? NaN, swept.wins[j * k + i] ?? NaN] : undefined));
    expect(kept.wins).toEqual(swept.wins);
    expect(kept.beats).toEqual(swept.beats);
    expect(kept.tieStart).toEqual(swept.tieStart);
    expect(kept.tieGroups).toEqual(swept.tieGroups);
    expect(kept.winIdx).toEqual(swept.winIdx);
    expect(kept.beats[0]).toBeInstanceOf(k <= 256 ? Uint8Array : Uint16Array);
    expect(swept.tieGroups.length > 0).toBe(k !== 7);
  });
});

describe('sortByScoreThenSystem (one instance\'s scores with their systems)', () => {
  it.each([1, 2, 12, 13, 14, 40, 100, 257])('orders %i scores by score, equal ones (−0 and +0 too) by system, as a comparison sort does', (k) => {
    const rng = mulberry32(k);
    for (const distinct of [2, 5, 1000]) {
      const vs = Float64Array.from({ length: k }, () => {
        const v = rng.nextInt(distinct) - 1;
        return v === 0 && rng.nextInt(2) === 0 ? -0 : v;
      });
      // systems in a shuffled order, as the sort never sees them otherwise
      const ids = Int32Array.from({ length: k }, (_, i) => i).sort(() => rng.nextInt(3) - 1);
      const expected = Array.from(ids, (id, q) => ({ v: vs[q] ?? NaN, id })).sort((a, b) => (a.v < b.v ? -1 : b.v < a.v ? 1 : a.id - b.id));
      sortByScoreThenSystem(vs, ids, 0, k - 1);
      expect(Array.from(ids)).toEqual(expected.map((e) => e.id));
      expect(Array.from(vs)).toEqual(expected.map((e) => e.v));
    }
  });
});

// Issue #28: a board several systems behind its memo has the tied counts of its kept pairs in the
// memo and those of the added systems' pairs listed by instance; the bootstrap must be the one
// without a memo, integer for integer, however many pairs are listed.
describe('tied counts from a memo and the pairs it lacks (pairTieSource)', () => {
  const k = 10;
  const n = 400;
  const rng = mulberry32(17);
  // systems tie often and in large groups (a TER-like metric on short sentences)
  const x = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.nextInt(4)));
  const pc = pairwiseCounts(x);
  const tiedPairs: number[] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) if ((pc.wins[i * k + j] ?? 0) + (pc.wins[j * k + i] ?? 0) < n) tiedPairs.push(i * k + j);
  const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? NaN) - (row[b] ?? NaN)));
  const opts = { tolerance: 1e-12, maxIterations: 100000 };
  const suff = sufficientFromWins(pc.wins, k);
  const point = fitBradleyTerrySufficient(suff.W, suff.N, k, opts);
  const R = 30;
  const seed = 5;
  const plain = bootstrapAggregates(x, pc, sortIdx, point.strengths, R, seed, opts, undefined, { kept: [], recordTies: true });
  const columns = defined(plain.tiedColumns, 'tied columns');
  // the last three systems are new to the memo: their 24 pairs (more than two per system) have no column
  const added = new Set([7, 8, 9]);
  const keptTies = (i: number, j: number) => (added.has(i) || added.has(j) ? undefined : columns.get(i * k + j));

  it('lists every pair of the added systems, each tied cell once, by instance', () => {
    const source = defined(pairTieSource(pc, k, tiedPairs, R, keptTies), 'tie source');
    expect(source.listedPairs.length).toBe(24);
    expect(source.keptPairs.length).toBe(tiedPairs.length - 24);
    const listed = new Map<number, number[]>();
    for (let l = 0; l < n; l++) for (let e = source.start[l] ?? 0; e < (source.start[l + 1] ?? 0); e++) listed.set(source.pairs[e] ?? -1, [...(listed.get(source.pairs[e] ?? -1) ?? []), l]);
    for (const p of source.listedPairs) {
      const i = Math.floor(p / k);
      const j = p - i * k;
      expect(listed.get(p)).toEqual(Array.from({ length: n }, (_, l) => l).filter((l) => x[i]?.[l] === x[j]?.[l]));
    }
    expect([...listed.keys()].sort((a, b) => a - b)).toEqual([...source.listedPairs].sort((a, b) => a - b));
  });

  it('gives the tied counts, wins and refits of the bootstrap without a memo', () => {
    const reused = bootstrapAggregates(x, pc, sortIdx, point.strengths, R, seed, opts, undefined, { kept: [], keptTies, recordTies: true });
    expect(reused.bTies).toEqual(plain.bTies);
    expect(reused.bWins).toEqual(plain.bWins);
    expect(reused.bBt).toEqual(plain.bBt);
    expect(reused.tiedColumns).toEqual(plain.tiedColumns);
  });

  it('leaves every pair to the tie groups when the listed cells pass the cap', () => {
    const source = defined(pairTieSource(pc, k, tiedPairs, R, keptTies), 'tie source');
    expect(pairTieSource(pc, k, tiedPairs, R, keptTies, source.pairs.length - 1)).toBeNull();
    expect(pairTieSource(pc, k, tiedPairs, R, keptTies, source.pairs.length)).not.toBeNull();
  });
});

describe('weightedRowSums (a resample\'s corpus statistics)', () => {
  it.each([1, 2, 3, 5, 6, 7, 10, 18, 24, 25])('gives the plain loop\'s sums bit for bit at width %i', (d) => {
    const rng = mulberry32(d);
    const rowsCount = 500;
    // fractional statistics too, so a different order of additions would show in the last bits
    const f = Float64Array.from({ length: rowsCount * d }, () => rng.next() * 1000 + 1 / 3);
    const drawn = Array.from({ length: 300 }, () => rng.nextInt(rowsCount));
    const rows = Int32Array.from(drawn, (l) => l * d);
    const weights = Float64Array.from(drawn, () => 1 + rng.nextInt(4));
    const plain = new Float64Array(d);
    drawn.forEach((l, q) => {
      for (let c = 0; c < d; c++) plain[c] = (plain[c] ?? 0) + (weights[q] ?? 0) * (f[l * d + c] ?? 0);
    });
    const out = new Float64Array(d).fill(Number.NaN);
    weightedRowSums(f, rows, weights, rows.length, d, out);
    expect(Array.from(out)).toEqual(Array.from(plain));
    // the rows given are the only ones read: fewer than all gives the sums of those
    weightedRowSums(f, rows, weights, 0, d, out);
    expect(Array.from(out)).toEqual(new Array<number>(d).fill(0));
  });
});

describe('compactStats (the corpus sums read 16-bit counts)', () => {
  it('copies integer counts from 0 to 65,535 into a Uint16Array with the same values', () => {
    const f = Float64Array.from([0, 1, 65_535, 7, -0]);
    const c = compactStats(f);
    expect(c).toBeInstanceOf(Uint16Array);
    expect(Array.from(c)).toEqual([0, 1, 65_535, 7, 0]);
  });

  it.each([[65_536], [-1], [0.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('leaves statistics holding %p as they are', (odd) => {
    const f = Float64Array.from([3, odd, 4]);
    expect(compactStats(f)).toBe(f);
  });

  it('gives every resampled corpus score the materialised resample gives, compacted or not', () => {
    const n = 60;
    const d = 3;
    const k = 3;
    const rng = mulberry32(5);
    const x = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.next()));
    // system 0: small counts (compacted), 1: one count above 65,535 (kept as Float64), 2: fractional
    const stats = [
      Float64Array.from({ length: n * d }, () => rng.nextInt(65_536)),
      Float64Array.from({ length: n * d }, (_, e) => (e === 4 ? 70_000 : rng.nextInt(300))),
      Float64Array.from({ length: n * d }, () => rng.nextInt(300) + 0.25),
    ];
    expect(stats.map((f) => compactStats(f).constructor.name)).toEqual(['Uint16Array', 'Float64Array', 'Float64Array']);
    // a score that reads every column apart (sums of integers and quarters: exact in any order)
    const score = (sum: ArrayLike<number>) => (sum[0] ?? 0) + 1e6 * (sum[1] ?? 0) + 1e12 * (sum[2] ?? 0);
    const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? 0) - (row[b] ?? 0)));
    const R = 5;
    const boot = bootstrapAggregates(x, pairwiseCounts(x), sortIdx, new Float64Array(k).fill(1), R, 9, { tolerance: 1e-9, maxIterations: 100 }, { width: d, data: stats, order: null, score });
    const draw = mulberry32(9);
    for (let r = 0; r < R; r++) {
      const idx = Array.from({ length: n }, () => draw.nextInt(n));
      stats.forEach((f, i) => {
        const sum = [0, 1, 2].map((c) => idx.reduce((s, l) => s + (f[l * d + c] ?? 0), 0));
        expect(boot.bCorpus[r * k + i]).toBe(score(sum));
      });
    }
  });
});
