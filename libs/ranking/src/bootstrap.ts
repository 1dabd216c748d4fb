/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the resampling loops (counts, pairwise wins, BT refits), indices bounded by the loops over those arrays; a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking */
import { column } from './analyse-kernels';
import { at } from './checked';
import { bradleyTerryOrderKey, fitBradleyTerrySufficient, type BradleyTerryOptions } from './bradley-terry';
import { percentileOfSorted } from './descriptive';
import type { StatsArray } from './corpus-resampling';
import { bootstrapCounts, mulberry32 } from './prng';
import { rankDescending } from './ranks';
import { drawnList, RESAMPLE_BATCH, resampleTies, resampleWins } from './resample-wins';
import type { SystemMemo } from './analysis-memo';
import { orientedScores, RankingInputError, type ScoreTable } from './score-table';

/** Pairwise outcomes counted once, O(k²n): the sufficient statistics every resample reweights. */
export interface PairwiseCounts {
  wins: Float64Array; // k×k, ω_ij
  /** beats[i][l] = #systems i strictly beats on instance l (at most k − 1: the narrowest integer array that holds it, see {@link beatsArray}). */
  beats: BeatsArray[];
  /**
   * Tied systems per instance, memory O(k·n) (not one list per pair): the groups of equal scores
   * on instance l are stored in `tieGroups[tieStart[l] … tieStart[l + 1])` as
   * [size, member₁ < member₂ < …, size, …]; only groups of two or more systems appear.
   */
  tieStart: Int32Array;
  tieGroups: Int32Array;
  /** winIdx[i*k+j]: the first (up to {@link WIN_LIST_CAP}) instances where i beats j. */
  winIdx: Int32Array[];
}

/** Per-instance beats counts of one system: bytes up to 256 systems (a quarter of the memory the per-resample wins stream). */
export type BeatsArray = Uint8Array | Uint16Array | Int32Array;

/**
 * A zeroed beats array for n instances of a board of k systems: counts reach k − 1, so bytes up
 * to 256 systems, 16 bits up to 65,536, else 32. Issue #28: the per-resample wins W read every
 * system's counts for every drawn instance (40 MB a resample at 100 × 100,000 as 32-bit), which
 * bound them by memory bandwidth.
 */
export function beatsArray(k: number, n: number): BeatsArray {
  return k <= 256 ? new Uint8Array(n) : k <= 65_536 ? new Uint16Array(n) : new Int32Array(n);
}

/** Win-instance lists kept per ordered pair to test, per resample, whether i still beats j at least once. */
export const WIN_LIST_CAP = 64;

/**
 * Whether system i beats j on at least one instance drawn in a resample (`counts`): the
 * win-graph edge of the resampled data. Checks the kept win list first (early exit; a list of 64
 * instances is all undrawn with probability ≈ 0.37^64), scans all instances only when needed.
 */
export function beatsInResample(pc: PairwiseCounts, x: readonly Float64Array[], counts: Int32Array, i: number, j: number): boolean {
  const k = x.length;
  const total = pc.wins[i * k + j] ?? 0;
  if (total === 0) return false;
  const list = pc.winIdx[i * k + j];
  // an indexed loop: this runs k² times per resample, and a typed array's iterator costs more than the check
  if (list) for (let q = 0; q < list.length; q++) if (counts[list[q]!] !== 0) return true;
  if (list && total <= list.length) return false;
  const xi = x[i];
  const xj = x[j];
  if (!xi || !xj) return false;
  for (let l = 0; l < xi.length; l++) if (counts[l] !== 0 && xi[l]! > xj[l]!) return true;
  return false;
}

/** Number of instances on which systems i and j tie (from the per-instance tie groups). */
export function tiedInstances(pc: PairwiseCounts, i: number, j: number): number {
  let tied = 0;
  const { tieStart, tieGroups } = pc;
  for (let l = 0; l + 1 < tieStart.length; l++) {
    for (let p = tieStart[l]!; p < tieStart[l + 1]!; p += 1 + tieGroups[p]!) {
      const members = tieGroups.subarray(p + 1, p + 1 + tieGroups[p]!);
      if (members.includes(i) && members.includes(j)) tied++;
    }
  }
  return tied;
}

/** Instances per block of {@link pairwiseCounts}' sweep: 1,024 (measured at 100 × 100,000, one process: 1.5–1.9× faster than one pass per pair over all n; 256 and 4,096 no better). */
const PAIR_BLOCK = 1024;

/**
 * The O(k²n) sweep of {@link pairwiseCounts}: fills `wins`, `beats`, the win `lists` and the tie
 * `leader`s; returns the tied cells. A function of its own: V8 optimises the loop as it does the
 * same loop in a small function (inlined into pairwiseCounts it ran 1.6× slower).
 */
function pairSweep(x: readonly Float64Array[], wins: Float64Array, beats: readonly BeatsArray[], lists: Int32Array, leader: Int32Array): number {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  let tiedCells = 0;
  // Instances in blocks of PAIR_BLOCK, every pair per block: the block's values and beats counts of
  // all systems stay in cache (half the time of one pass per pair over all n at 100 × 100,000).
  // The same comparisons in the same order per pair and instance, so the same counts and lists.
  for (let l0 = 0; l0 < n; l0 += PAIR_BLOCK) {
    const l1 = Math.min(n, l0 + PAIR_BLOCK);
    for (let i = 0; i < k; i++) {
      const xi = at(x, i);
      const bi = at(beats, i);
      for (let j = i + 1; j < k; j++) {
        const xj = at(x, j);
        const bj = at(beats, j);
        const lj = j * n;
        let wij = wins[i * k + j]!;
        let wji = wins[j * k + i]!;
        const oa = (i * k + j) * WIN_LIST_CAP;
        const ob = (j * k + i) * WIN_LIST_CAP;
        // branch-free counts (outcomes are unpredictable); only the rare tie and the first
        // WIN_LIST_CAP wins of each side take a branch
        for (let l = l0; l < l1; l++) {
          const a = xi[l]!;
          const b = xj[l]!;
          const gt = +(a > b);
          const lt = +(b > a);
          if (wij < WIN_LIST_CAP && gt) lists[oa + wij] = l;
          if (wji < WIN_LIST_CAP && lt) lists[ob + wji] = l;
          wij += gt;
          wji += lt;
          bi[l]! += gt;
          bj[l]! += lt;
          if (a === b && leader[lj + l] === -1) {
            leader[lj + l] = i;
            tiedCells++;
          }
        }
        wins[i * k + j] = wij;
        wins[j * k + i] = wji;
      }
    }
  }
  return tiedCells;
}

/**
 * Wins, per-instance "beats" counts, per-instance tie groups and short win lists for all pairs,
 * in one O(k²n) sweep. Memory O(k·n + k²·WIN_LIST_CAP).
 */
export function pairwiseCounts(x: readonly Float64Array[]): PairwiseCounts {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  const wins = new Float64Array(k * k);
  const beats = x.map(() => beatsArray(k, n));
  // The first WIN_LIST_CAP wins of each ordered pair, at (i·k + j)·WIN_LIST_CAP (the lists are views of it).
  const lists = new Int32Array(k * k * WIN_LIST_CAP);
  // leader[j·n + l] = smallest i < j tied with j on instance l (ties are transitive), or −1.
  const leader = new Int32Array(k * n).fill(-1);
  const tiedCells = pairSweep(x, wins, beats, lists, leader);
  const winIdx: Int32Array[] = new Array<Int32Array>(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      const o = (i * k + j) * WIN_LIST_CAP;
      winIdx[i * k + j] = lists.subarray(o, o + Math.min(wins[i * k + j]!, WIN_LIST_CAP));
    }
  }
  // Per instance: the groups [size, leader, followers…], members ascending.
  const tieStart = new Int32Array(n + 1);
  const tieGroups = new Int32Array(3 * tiedCells); // per group: size + leader + followers ≤ 3·followers
  const size = new Int32Array(k);
  let p = 0;
  for (let l = 0; l < n; l++) {
    tieStart[l] = p;
    if (tiedCells > 0) {
      size.fill(0);
      for (let j = 1; j < k; j++) {
        const g = leader[j * n + l]!;
        if (g >= 0) size[g]!++;
      }
      for (let g = 0; g < k; g++) {
        const followers = size[g]!;
        if (followers === 0) continue;
        tieGroups[p++] = followers + 1;
        tieGroups[p++] = g;
        for (let j = g + 1; j < k; j++) if (leader[j * n + l] === g) tieGroups[p++] = j;
      }
    }
  }
  tieStart[n] = p;
  return { wins, beats, tieStart, tieGroups: tieGroups.slice(0, p), winIdx };
}

/** A growable Int32Array (the tie groups' length is known only at the end). */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
}

/** Whether (score a, system ia) comes before (score b, system ib): by score (−0 = +0), then by system. */
function before(a: number, ia: number, b: number, ib: number): boolean {
  return a < b || (!(b < a) && ia < ib);
}

/**
 * Sorts `vs[lo…hi]` ascending and `ids` along with it, equal scores by system (keys are distinct:
 * every system once): quicksort with the median of three, insertion sort below 13. For the k
 * scores of one instance in {@link pairwiseCountsKept} (issue #28: a typed-array sort, then a binary
 * search per system and a scan per tie group, were 2 s of an analysis at 100 × 100,000).
 */
export function sortByScoreThenSystem(vs: Float64Array, ids: Int32Array, lo: number, hi: number): void {
  const swap = (a: number, b: number): void => {
    const v = vs[a]!;
    vs[a] = vs[b]!;
    vs[b] = v;
    const t = ids[a]!;
    ids[a] = ids[b]!;
    ids[b] = t;
  };
  while (hi - lo > 12) {
    const mid = (lo + hi) >> 1;
    if (before(vs[mid]!, ids[mid]!, vs[lo]!, ids[lo]!)) swap(mid, lo);
    if (before(vs[hi]!, ids[hi]!, vs[lo]!, ids[lo]!)) swap(hi, lo);
    if (before(vs[hi]!, ids[hi]!, vs[mid]!, ids[mid]!)) swap(hi, mid);
    // the median of three as the pivot, at lo; lo < mid ≤ hi bound the scans
    swap(lo, mid);
    const pv = vs[lo]!;
    const pid = ids[lo]!;
    let i = lo;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (i <= hi && before(vs[i]!, ids[i]!, pv, pid));
      do j--;
      while (before(pv, pid, vs[j]!, ids[j]!));
      if (i >= j) break;
      swap(i, j);
    }
    swap(lo, j);
    // the smaller side first, the larger in this loop: depth O(log k)
    if (j - lo < hi - j) {
      sortByScoreThenSystem(vs, ids, lo, j - 1);
      lo = j + 1;
    } else {
      sortByScoreThenSystem(vs, ids, j + 1, hi);
      hi = j - 1;
    }
  }
  for (let a = lo + 1; a <= hi; a++) {
    const v = vs[a]!;
    const id = ids[a]!;
    let b = a - 1;
    for (; b >= lo && before(v, id, vs[b]!, ids[b]!); b--) {
      vs[b + 1] = vs[b]!;
      ids[b + 1] = ids[b]!;
    }
    vs[b + 1] = v;
    ids[b + 1] = id;
  }
}

/**
 * {@link pairwiseCounts} when an analysis memo holds most pairs' wins (issue #28: the O(k²n) sweep
 * was 2.4 s of the board after the last score at 100 × 100,000): the same wins, beats counts, tie
 * groups and win lists, with
 * - each pair's wins both ways from `keptWins(i, j)` (canonical i < j: [i beats j, j beats i]),
 *   counted in O(n) for the pairs it does not hold;
 * - the beats counts and tie groups per instance from the k scores sorted (O(n·k log k)): a
 *   system beats as many systems as there are scores below its own, and equal scores tie;
 * - each ordered pair's first {@link WIN_LIST_CAP} wins by scanning from the first instance
 *   (as far as the cap or the pair's wins reach).
 * Integers and instance lists: identical to the sweep's (bootstrap.spec.ts).
 */
export function pairwiseCountsKept(x: readonly Float64Array[], keptWins: (i: number, j: number) => readonly [number, number] | undefined): PairwiseCounts {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  const wins = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    const xi = at(x, i);
    for (let j = i + 1; j < k; j++) {
      const kept = keptWins(i, j);
      if (kept) {
        wins[i * k + j] = kept[0];
        wins[j * k + i] = kept[1];
        continue;
      }
      const xj = at(x, j);
      let wij = 0;
      let wji = 0;
      for (let l = 0; l < n; l++) {
        const a = xi[l]!;
        const b = xj[l]!;
        wij += +(a > b);
        wji += +(b > a);
      }
      wins[i * k + j] = wij;
      wins[j * k + i] = wji;
    }
  }
  // the first wins of each ordered pair, both directions of a pair in one scan
  const lists = new Int32Array(k * k * WIN_LIST_CAP);
  const winIdx: Int32Array[] = new Array<Int32Array>(k * k);
  for (let i = 0; i < k; i++) {
    const xi = at(x, i);
    for (let j = i + 1; j < k; j++) {
      const xj = at(x, j);
      const capA = Math.min(wins[i * k + j]!, WIN_LIST_CAP);
      const capB = Math.min(wins[j * k + i]!, WIN_LIST_CAP);
      const oa = (i * k + j) * WIN_LIST_CAP;
      const ob = (j * k + i) * WIN_LIST_CAP;
      let fa = 0;
      let fb = 0;
      for (let l = 0; l < n && (fa < capA || fb < capB); l++) {
        const a = xi[l]!;
        const b = xj[l]!;
        if (a > b) {
          if (fa < capA) lists[oa + fa++] = l;
        } else if (b > a && fb < capB) lists[ob + fb++] = l;
      }
      winIdx[i * k + j] = lists.subarray(oa, oa + capA);
      winIdx[j * k + i] = lists.subarray(ob, ob + capB);
    }
  }
  // per instance: the k scores sorted with their systems (equal scores by system), so each run of
  // equal scores is a tie group, members ascending, and its start is what each member beats
  const beats = x.map(() => beatsArray(k, n));
  const vs = new Float64Array(k);
  const ids = new Int32Array(k);
  const runs = new Int32Array(k);
  const runEnd = new Int32Array(k);
  const tieStart = new Int32Array(n + 1);
  const groups = new IntList();
  for (let l = 0; l < n; l++) {
    for (let i = 0; i < k; i++) {
      vs[i] = x[i]![l]!;
      ids[i] = i;
    }
    sortByScoreThenSystem(vs, ids, 0, k - 1);
    let tiedRuns = 0;
    for (let t = 0; t < k; ) {
      const v = vs[t]!;
      let u = t + 1;
      // −0 and +0 are equal, as in the sweep
      while (u < k && vs[u] === v) u++;
      for (let q = t; q < u; q++) beats[ids[q]!]![l] = t;
      if (u - t > 1) {
        runs[tiedRuns++] = t;
        runEnd[t] = u;
      }
      t = u;
    }
    tieStart[l] = groups.length;
    if (tiedRuns === 0) continue;
    // groups in the order of their smallest member (a run's first), members ascending: [size, leader, followers…]
    for (let a = 1; a < tiedRuns; a++) {
      const r = runs[a]!;
      let b = a - 1;
      for (; b >= 0 && ids[runs[b]!]! > ids[r]!; b--) runs[b + 1] = runs[b]!;
      runs[b + 1] = r;
    }
    for (let g = 0; g < tiedRuns; g++) {
      const t = runs[g]!;
      const u = runEnd[t]!;
      groups.push(u - t);
      for (let q = t; q < u; q++) groups.push(ids[q]!);
    }
  }
  tieStart[n] = groups.length;
  return { wins, beats, tieStart, tieGroups: groups.data.slice(0, groups.length), winIdx };
}

export function sufficientFromWins(wins: Float64Array, k: number): { W: Float64Array; N: Float64Array } {
  const W = new Float64Array(k);
  const N = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      W[i] = at(W, i) + at(wins, i * k + j);
      N[i * k + j] = at(wins, i * k + j) + at(wins, j * k + i);
    }
  }
  return { W, N };
}


/** Per-resample aggregates (flat R×k, row r = resample r). */
export interface BootstrapAggregates {
  bMean: Float64Array;
  bMedian: Float64Array;
  bBt: Float64Array;
  bBtKey: Float64Array;
  /** Corpus score of each system per resample (flat R×k), when corpus statistics were given; else empty. */
  bCorpus: Float64Array;
  nonConverged: number;
  /** Resamples whose win graph is not strongly connected (strengths then compare only within components). */
  noFiniteMle: number;
  /** Each system's resampled Bradley–Terry wins W_i (flat R×k). */
  bWins: Float64Array;
  /** With `reuse.recordTies`: per canonical pair i < j with ties (key i·k + j), its tied count per resample. */
  tiedColumns: Map<number, Int32Array> | null;
  /** With `reuse.columnsOnly.tieLists`: each listed pair's tied count per resample (else empty). */
  listedTies: Int32Array[];
  /**
   * Each system's resampled ties T_i = Σ_l c_l·#{j ≠ i : x_jl = x_il} (flat R×k): with {@link bWins}
   * the resampled win points W_i + T_i/2 that the mean win rate reads. Integers: exact.
   */
  bTies: Float64Array;
}

/**
 * Columns a memo already holds (analysis-memo.ts): `kept[i]` (canonical order) gives system i's
 * resampled mean, median and corpus score for the first resamples (resample r's counts do not
 * depend on R: the seeded draws come in order), the others are computed. The wins W are summed
 * for every system in each resample (one pass over the drawn instances, O(k·n)).
 */
export interface BootstrapReuse {
  kept: readonly (Pick<SystemMemo, 'mean' | 'median' | 'corpus'> | undefined)[];
  /**
   * The resampled tied counts a memo kept for canonical pair i < j (PairMemo.tied): resample r's
   * Σ_{l tied} c_l at index r. Pairs with ties but no column (or a shorter one) are counted from
   * the drawn instances they tie on ({@link pairTieSource}); when they tie on more than
   * {@link TIE_LIST_MAX_CELLS} instances in all, every pair is counted from the tie groups as
   * without a memo. Integers: exact either way.
   */
  keptTies?: (i: number, j: number) => Int32Array | undefined;
  /** Record each tied pair's resampled tied counts ({@link BootstrapAggregates.tiedColumns}) for the memo. */
  recordTies?: boolean;
  /**
   * Only the per-system columns (means, medians, corpus scores) and the tied counts of the pairs
   * listed here, for a memo filled ahead of the analysis (fillAnalysisMemo): no wins, no ties of
   * the other pairs, no Bradley–Terry refits (`pc` is not read). `tieLists`: pair t's tied
   * instances are `lists[listStart[t] … listStart[t + 1])`; its counts per resample come back in
   * {@link BootstrapAggregates.listedTies} (pair t at index t).
   */
  columnsOnly?: { tieLists: { listStart: Int32Array; lists: Int32Array } | null };
}

/**
 * Most (pair, instance) tie cells of the pairs without a kept column that a {@link PairTieSource}
 * lists (4 bytes each, 128 MiB); beyond, the tie groups serve every pair as without a memo.
 */
export const TIE_LIST_MAX_CELLS = 1 << 25;

/**
 * Most (tied pairs × resamples) whose columns an analysis keeps for its memo (4 bytes each, 10 MB):
 * 100 systems at the 200 resamples of 100 × 100,000 keep at most 990,000; an arena board keeps none.
 */
export const TIE_MEMO_MAX_CELLS = 2_500_000;

/**
 * Per-instance sufficient statistics of a corpus metric for the shared bootstrap: `data[i]` holds
 * system i's rows (n × width, row-major); `score` turns one row of
 * (weighted) column sums into the corpus score.
 */
export interface CorpusStatsFlat {
  width: number;
  data: readonly StatsArray[];
  /** order[l] = row of canonical instance l in `data` (null: the same). */
  order: Int32Array | null;
  score: (sum: ArrayLike<number>) => number;
}

/**
 * Σ_q w_q · f[row_q + c] for c < 10 (BLEU's width) with the ten sums in registers: about 40%
 * faster than accumulating into an array, and the same additions in the same order per column.
 */
function weightedRowSum10(f: StatsArray, rows: Int32Array, weights: Float64Array, m: number, out: Float64Array): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let s8 = 0;
  let s9 = 0;
  for (let q = 0; q < m; q++) {
    const b = rows[q]!;
    const w = weights[q]!;
    s0 += w * f[b]!;
    s1 += w * f[b + 1]!;
    s2 += w * f[b + 2]!;
    s3 += w * f[b + 3]!;
    s4 += w * f[b + 4]!;
    s5 += w * f[b + 5]!;
    s6 += w * f[b + 6]!;
    s7 += w * f[b + 7]!;
    s8 += w * f[b + 8]!;
    s9 += w * f[b + 9]!;
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
  out[4] = s4;
  out[5] = s5;
  out[6] = s6;
  out[7] = s7;
  out[8] = s8;
  out[9] = s9;
}

/**
 * Σ_q w_q · f[row_q + c] for every c < d into `out`: BLEU's 10 columns at once, other widths six
 * (chrF's 18, chrF++'s 24), then two (TER's 2), then one at a time, each block's sums in
 * registers (chrF's 18: about a third faster than accumulating into an array; issue #28). Each
 * column's additions in the same order as a plain loop over q: the same sums, bit for bit.
 */
export function weightedRowSums(f: StatsArray, rows: Int32Array, weights: Float64Array, m: number, d: number, out: Float64Array): void {
  if (d === 10) {
    weightedRowSum10(f, rows, weights, m, out);
    return;
  }
  let c = 0;
  for (; c + 6 <= d; c += 6) weightedRowSum6(f, rows, weights, m, c, out);
  for (; c + 2 <= d; c += 2) weightedRowSum2(f, rows, weights, m, c, out);
  for (; c < d; c++) {
    let s = 0;
    for (let q = 0; q < m; q++) s += weights[q]! * f[rows[q]! + c]!;
    out[c] = s;
  }
}

/**
 * A system's statistics as the per-resample corpus sums read them: a Uint16Array copy when every
 * value is an integer from 0 to 65,535 (BLEU's and chrF's counts, TER's with one reference), else
 * `f` itself. The same numbers, so the same sums bit for bit, in a quarter of the bytes: each
 * resample streams every fresh system's rows, which at 100,000 instances outgrow the caches
 * (chrF's 18 columns: 14.4 MB a system as Float64Array, 3.6 MB compacted; issue #28, about five
 * times faster with several systems). One type for every metric whose counts fit keeps the
 * kernels monomorphic.
 */
export function compactStats(f: StatsArray): StatsArray {
  if (f instanceof Uint16Array) return f;
  for (let e = 0; e < f.length; e++) {
    const v = f[e]!;
    if (v !== (v & 0xffff)) return f;
  }
  return Uint16Array.from(f);
}

/** Columns c0 … c0 + 5 of {@link weightedRowSums}. */
function weightedRowSum6(f: StatsArray, rows: Int32Array, weights: Float64Array, m: number, c0: number, out: Float64Array): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  for (let q = 0; q < m; q++) {
    const b = rows[q]! + c0;
    const w = weights[q]!;
    s0 += w * f[b]!;
    s1 += w * f[b + 1]!;
    s2 += w * f[b + 2]!;
    s3 += w * f[b + 3]!;
    s4 += w * f[b + 4]!;
    s5 += w * f[b + 5]!;
  }
  out[c0] = s0;
  out[c0 + 1] = s1;
  out[c0 + 2] = s2;
  out[c0 + 3] = s3;
  out[c0 + 4] = s4;
  out[c0 + 5] = s5;
}

/** Columns c0 and c0 + 1 of {@link weightedRowSums}. */
function weightedRowSum2(f: StatsArray, rows: Int32Array, weights: Float64Array, m: number, c0: number, out: Float64Array): void {
  let s0 = 0;
  let s1 = 0;
  for (let q = 0; q < m; q++) {
    const b = rows[q]! + c0;
    const w = weights[q]!;
    s0 += w * f[b]!;
    s1 += w * f[b + 1]!;
  }
  out[c0] = s0;
  out[c0 + 1] = s1;
}

/**
 * Where each tied pair's resampled tied count comes from when a memo kept columns
 * ({@link pairTieSource}): the kept columns, and for the other tied pairs (`listedPairs`) the
 * pairs tied at each instance, by instance (CSR: instance l's are `pairs[start[l] … start[l + 1])`,
 * each as i·k + j with i < j), so that a resample visits the drawn instances' listed cells only.
 */
export interface PairTieSource {
  keptPairs: Int32Array;
  keptColumns: Int32Array[];
  listedPairs: Int32Array;
  start: Int32Array;
  pairs: Int32Array;
}

/**
 * The tie source of an analysis whose memo kept tied columns: kept columns (at least R long) where
 * the memo has them; the other tied pairs (a board's added systems against every other) listed by
 * instance off the tie groups, visiting in each group only the members of such pairs. Their
 * per-resample cost is the drawn share of their own tie cells, never more than the tie groups'
 * (every tied pair's cells). Null when they have more than `maxCells` cells (a memo that holds few
 * of the board's pairs): the tie groups then serve every pair as without a memo. Issue #28: capped
 * at two pairs per system until then, a board three systems behind its memo (297 pairs at 100
 * systems) walked every tie group of every resample, 19 s of a TER board at 100 × 100,000.
 */
export function pairTieSource(
  pc: Pick<PairwiseCounts, 'tieStart' | 'tieGroups'>,
  k: number,
  tiedPairs: readonly number[],
  R: number,
  keptTies: (i: number, j: number) => Int32Array | undefined,
  maxCells = TIE_LIST_MAX_CELLS,
): PairTieSource | null {
  const keptPairs: number[] = [];
  const keptColumns: Int32Array[] = [];
  const listed: number[] = [];
  for (const p of tiedPairs) {
    const i = (p / k) | 0;
    const col = keptTies(i, p - i * k);
    if (col && col.length >= R) {
      keptPairs.push(p);
      keptColumns.push(col);
    } else listed.push(p);
  }
  const listedPair = new Uint8Array(k * k);
  const involved = new Uint8Array(k);
  for (const p of listed) {
    const i = (p / k) | 0;
    listedPair[p] = 1;
    involved[i] = 1;
    involved[p - i * k] = 1;
  }
  const { tieStart, tieGroups } = pc;
  const n = tieStart.length - 1;
  // One pass over the groups: each listed pair of a group once, from its first involved member (a
  // pair of two involved members from the smaller), appended in instance order.
  const start = new Int32Array(n + 1);
  const cells = new IntList();
  if (listed.length > 0) {
    for (let l = 0; l < n; l++) {
      for (let g = tieStart[l]!, end = tieStart[l + 1]!; g < end; g += 1 + tieGroups[g]!) {
        const last = g + tieGroups[g]!;
        for (let a = g + 1; a <= last; a++) {
          const ia = tieGroups[a]!;
          if (involved[ia] === 0) continue;
          for (let b = g + 1; b <= last; b++) {
            const ib = tieGroups[b]!;
            if (ib === ia || (involved[ib] === 1 && ib < ia)) continue;
            const pair = ia < ib ? ia * k + ib : ib * k + ia;
            if (listedPair[pair] === 1) cells.push(pair);
          }
        }
      }
      start[l + 1] = cells.length;
      if (cells.length > maxCells) return null;
    }
  }
  return { keptPairs: Int32Array.from(keptPairs), keptColumns, listedPairs: Int32Array.from(listed), start, pairs: cells.data.slice(0, cells.length) };
}

/**
 * Bootstrap over instances with one multinomial count vector c per resample shared by every
 * system: mean_i = Σ c_l x_il / n, the weighted median from the presorted order, and Bradley–Terry
 * refitted from W_i = Σ_l c_l·beats_il and N_ij = n − Σ_{l tied} c_l (docs/adr/0003). Equivalent to
 * resampling instance indices, in O(k·n + ties + k²·iterations) per resample instead of O(k²n).
 * With `corpus`, the same count vector also gives every system's resampled corpus score
 * (sacreBLEU's paired-bs draws; identical to {@link pairedCorpusResampling} with the same seed),
 * so the indices are drawn once for sentence and corpus statistics.
 */
export function bootstrapAggregates(
  x: readonly Float64Array[],
  pc: PairwiseCounts,
  sortIdx: readonly Int32Array[],
  btInit: ArrayLike<number>,
  R: number,
  seed: number,
  btOpts: BradleyTerryOptions,
  corpus?: CorpusStatsFlat,
  reuse?: BootstrapReuse,
): BootstrapAggregates {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  const rng = mulberry32(seed);
  // Resamples are drawn a batch at a time (in order: the same draws as one at a time) so that one
  // pass of the wins kernel serves the batch; then each resample of the batch is finished in turn.
  const batchCounts = Array.from({ length: Math.min(RESAMPLE_BATCH, Math.max(R, 1)) }, () => new Int32Array(n));
  const drawnIdx = new Int32Array(n);
  const drawnCount = new Float64Array(n);
  const drawnRow = new Int32Array(corpus ? n : 0);
  const bMean = new Float64Array(R * k);
  const bMedian = new Float64Array(R * k);
  const columnsOnly = reuse?.columnsOnly ?? null;
  const batchWins = new Float64Array(columnsOnly ? 0 : batchCounts.length * k);
  const winsKernel = columnsOnly ? null : resampleWins(pc.beats, n);
  const bBt = new Float64Array(columnsOnly ? 0 : R * k);
  const bBtKey = new Float64Array(columnsOnly ? 0 : R * k);
  const bCorpus = new Float64Array(corpus ? R * k : 0);
  const d = corpus?.width ?? 0;
  const corpusSum = new Float64Array(d);
  const N = new Float64Array(k * k);
  const tied = new Float64Array(k * k);
  const { tieStart, tieGroups } = pc;
  let nonConverged = 0;
  let noFiniteMle = 0;
  const p1 = (n - 1) >> 1;
  const p2 = n >> 1;
  const bWins = new Float64Array(columnsOnly ? 0 : R * k);
  const bTies = new Float64Array(columnsOnly ? 0 : R * k);
  const tieLists = columnsOnly?.tieLists ?? null;
  const listedTies = tieLists ? Array.from({ length: tieLists.listStart.length - 1 }, () => new Int32Array(R)) : [];
  const kept = reuse?.kept ?? [];
  const keptIdx: number[] = [];
  const fresh: number[] = [];
  // Pairs with ties (i < j, wins both ways short of n): their tied counts per resample come from
  // the memo's columns, or from their own tied instances (issue #28: at 100 × 100,000 the tie
  // groups' pairs cost more than every system's wins); without a memo, from the tie groups.
  const tiedPairs: number[] = [];
  if (tieGroups.length > 0 && !columnsOnly) for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) if (pc.wins[i * k + j]! + pc.wins[j * k + i]! < n) tiedPairs.push(i * k + j);
  const tiedColumns = reuse?.recordTies && tiedPairs.length * R <= TIE_MEMO_MAX_CELLS ? new Map(tiedPairs.map((p) => [p, new Int32Array(R)])) : null;
  const tieSource = reuse?.keptTies && tiedPairs.length > 0 ? pairTieSource(pc, k, tiedPairs, R, reuse.keptTies) : null;
  // the listed pairs' tied counts, a batch of resamples at a time (as the wins)
  const listedCount = tieSource?.listedPairs.length ?? 0;
  const tiesKernel = tieSource && listedCount > 0 ? resampleTies(tieSource, n) : null;
  const batchTies = new Float64Array(tiesKernel ? batchCounts.length * listedCount : 0);
  // the statistics of the systems whose corpus columns are computed here, compacted once
  const corpusRows = corpus ? corpus.data.map((f, i) => ((kept[i]?.mean.length ?? 0) < R ? compactStats(f) : f)) : [];
  for (let r = 0; r < R; r++) {
    const b = r % RESAMPLE_BATCH;
    if (b === 0) {
      const batch = Math.min(RESAMPLE_BATCH, R - r);
      for (let t = 0; t < batch; t++) bootstrapCounts(n, rng, batchCounts[t]!);
      // Every system's wins W_i = Σ_l c_l·beats_il of the batch's resamples (integers, exact in any order)
      winsKernel?.wins(batchCounts, batch, batchWins);
      tiesKernel?.ties(batchCounts, batch, batchTies);
    }
    const counts = batchCounts[b]!;
    const W = batchWins.subarray(b * k, (b + 1) * k);
    // Instances drawn at least once (≈ 63%), as (index, count) lists: fewer multiply-adds.
    const m = drawnList(counts, n, drawnIdx, drawnCount);
    const row = r * k;
    // a kept system's columns may be shorter than R (an analysis with fewer resamples): the rest is computed
    fresh.length = 0;
    keptIdx.length = 0;
    for (let i = 0; i < k; i++) (r < (kept[i]?.mean.length ?? 0) ? keptIdx : fresh).push(i);
    for (let f = 0; f < fresh.length; f += 2) {
      // two systems per sweep: half the passes over the drawn list
      const i = fresh[f]!;
      const i2 = f + 1 < fresh.length ? fresh[f + 1]! : i;
      const x0 = at(x, i);
      const x1 = at(x, i2);
      let s0 = 0;
      let s1 = 0;
      for (let q = 0; q < m; q++) {
        const l = drawnIdx[q]!;
        const c = drawnCount[q]!;
        s0 += c * x0[l]!;
        s1 += c * x1[l]!;
      }
      bMean[row + i] = s0 / n;
      bMean[row + i2] = s1 / n;
    }
    for (const i of keptIdx) {
      const memo = kept[i]!;
      bMean[row + i] = memo.mean[r]!;
      bMedian[row + i] = memo.median[r]!;
      if (corpus) bCorpus[row + i] = memo.corpus[r]!;
    }
    for (const i of fresh) {
      // weighted median: walk the sorted order accumulating counts up to positions p1 and p2
      const xi = at(x, i);
      const idx = at(sortIdx, i);
      let t = 0;
      let cum = 0;
      for (; t < n; t++) {
        cum += counts[idx[t]!]!;
        if (cum > p1) break;
      }
      const lo = xi[idx[t]!]!;
      let hi = lo;
      if (cum <= p2) {
        for (t++; t < n; t++) {
          cum += counts[idx[t]!]!;
          if (cum > p2) break;
        }
        hi = xi[idx[t]!]!;
      }
      bMedian[row + i] = (lo + hi) / 2;
    }
    if (corpus) {
      const order = corpus.order;
      for (let q = 0; q < m; q++) drawnRow[q] = (order ? order[drawnIdx[q]!]! : drawnIdx[q]!) * d;
      for (const i of fresh) {
        const f = at(corpusRows, i);
        weightedRowSums(f, drawnRow, drawnCount, m, d, corpusSum);
        bCorpus[row + i] = corpus.score(corpusSum);
      }
    }
    if (columnsOnly) {
      // the listed pairs' tied counts (as pairTieSource's lists give them in the analysis), then the next resample
      if (tieLists) {
        for (let t = 0; t < listedTies.length; t++) {
          let sum = 0;
          for (let e = tieLists.listStart[t]!, end = tieLists.listStart[t + 1]!; e < end; e++) sum += counts[tieLists.lists[e]!]!;
          listedTies[t]![r] = sum;
        }
      }
      continue;
    }
    for (let i = 0; i < k; i++) bWins[row + i] = W[i]!;
    // Tied (pair, instance) cells of the drawn instances: N_ij = n − Σ_{l tied} c_l (integers, exact);
    // each member of a group of s tied systems ties s − 1 others (T_i).
    if (tieSource) {
      // kept columns, then the listed pairs from their instances; T_i = Σ_j tied_ij
      for (let t = 0; t < tieSource.keptPairs.length; t++) tied[tieSource.keptPairs[t]!] = tieSource.keptColumns[t]![r]!;
      const { listedPairs } = tieSource;
      for (let t = 0, o = b * listedCount; t < listedCount; t++) tied[listedPairs[t]!] = batchTies[o + t]!;
      for (const p of tiedPairs) {
        const i = (p / k) | 0;
        const t = tied[p]!;
        bTies[row + i]! += t;
        bTies[row + p - i * k]! += t;
      }
    } else if (tieGroups.length > 0) {
      tied.fill(0);
      for (let q = 0; q < m; q++) {
        const l = drawnIdx[q]!;
        const c = drawnCount[q]!;
        for (let p = tieStart[l]!, end = tieStart[l + 1]!; p < end; ) {
          const size = tieGroups[p]!;
          const others = c * (size - 1);
          for (let a = p + 1; a <= p + size; a++) {
            const ia = tieGroups[a]! * k;
            bTies[row + tieGroups[a]!]! += others;
            for (let b = a + 1; b <= p + size; b++) tied[ia + tieGroups[b]!]! += c;
          }
          p += size + 1;
        }
      }
    }
    if (tiedColumns) for (const [p, col] of tiedColumns) col[r] = tied[p]!;
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) N[i * k + j] = N[j * k + i] = n - tied[i * k + j]!;
    }
    // Refits stop at the MM tolerance (no Newton polish): interval endpoints need no 1e-8 precision.
    const fit = fitBradleyTerrySufficient(W, N, k, { ...btOpts, initial: btInit, throwOnNonConvergence: false, polish: false }, (i, j) =>
      beatsInResample(pc, x, counts, i, j),
    );
    if (!fit.converged) nonConverged++;
    if (!fit.finiteMle) noFiniteMle++;
    fit.strengths.forEach((strength, i) => {
      bBt[row + i] = strength;
      bBtKey[row + i] = bradleyTerryOrderKey(strength, fit.tier[i] ?? 0, fit.tiers);
    });
  }
  return { bMean, bMedian, bBt, bBtKey, bCorpus, nonConverged, noFiniteMle, bWins, bTies, tiedColumns, listedTies };
}

/** Options for {@link bootstrapBradleyTerry}. */
export interface BootstrapOptions {
  /** Resamples, default 1,000. */
  resamples?: number;
  /** Seed, default 12345. */
  seed?: number;
  /** Options for the point fit and every refit. */
  bradleyTerry?: Pick<BradleyTerryOptions, 'tolerance' | 'maxIterations'>;
}

/** Bradley–Terry strengths with bootstrap intervals (see {@link bootstrapBradleyTerry}). */
export interface BradleyTerryBootstrap {
  systems: string[];
  strengths: number[];
  /** 2.5 and 97.5 percentiles of each strength over resamples (linear interpolation). */
  ci: [number, number][];
  ranks: number[];
  /** 2.5–97.5 percentile interval of each system's rank (floor/ceil to integers). */
  rankCi: [number, number][];
  nonConverged: number;
}

/**
 * Bradley–Terry fit with 95% bootstrap intervals of strengths and ranks: resample instances with
 * replacement (multinomial counts, seeded mulberry32), refit by MM (warm-started at the point
 * estimate), take the 2.5 and 97.5 percentiles. Instances are used in table order.
 * Reference: Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 (percentile
 * intervals); Zhao thesis ch. 11 App. E for the fit.
 * @example bootstrapBradleyTerry(table, { resamples: 1000, seed: 12345 }).ci[0]; // [lo, hi]
 */
export function bootstrapBradleyTerry(table: ScoreTable<ArrayLike<number>>, options: BootstrapOptions = {}): BradleyTerryBootstrap {
  const R = options.resamples ?? 1000;
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('resamples must be a positive integer');
  const x = orientedScores(table);
  const k = x.length;
  const [first] = x;
  if (k < 2 || first === undefined || first.length < 1) throw new RankingInputError('need at least two systems and one instance');
  const n = first.length;
  const btOpts: BradleyTerryOptions = { tolerance: options.bradleyTerry?.tolerance ?? 1e-9, maxIterations: options.bradleyTerry?.maxIterations ?? 10000 };
  const pc = pairwiseCounts(x);
  const suff = sufficientFromWins(pc.wins, k);
  const fit = fitBradleyTerrySufficient(suff.W, suff.N, k, btOpts, (i, j) => at(pc.wins, i * k + j) > 0);
  const key = Array.from(fit.strengths, (s, i) => bradleyTerryOrderKey(s, at(fit.tier, i), fit.tiers));
  const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => at(row, a) - at(row, b)));
  const boot = bootstrapAggregates(x, pc, sortIdx, fit.strengths, R, options.seed ?? 12345, btOpts);
  const ci: [number, number][] = [];
  const rankCi: [number, number][] = [];
  const rankCols = Array.from({ length: k }, () => new Float64Array(R));
  for (let r = 0; r < R; r++) {
    const ranks = rankDescending(boot.bBtKey.subarray(r * k, (r + 1) * k), 1e-9);
    ranks.forEach((rank, i) => (at(rankCols, i)[r] = rank));
  }
  for (const [i, rankCol] of rankCols.entries()) {
    const col = column(boot.bBt, k, i, R).sort();
    ci.push([percentileOfSorted(col, 2.5), percentileOfSorted(col, 97.5)]);
    rankCol.sort();
    rankCi.push([Math.floor(percentileOfSorted(rankCol, 2.5)), Math.ceil(percentileOfSorted(rankCol, 97.5))]);
  }
  return { systems: table.systems.slice(), strengths: Array.from(fit.strengths), ci, ranks: rankDescending(key, 1e-9), rankCi, nonConverged: boot.nonConverged };
}
