/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the compensated sums and the radix argsort (called per pair and per resample), indices bounded by the loops over those arrays; a check per access would cost throughput (npm run bench:ranking-scale); results checked by npx jest libs/ranking */
import { at } from './checked';

/**
 * Arithmetic mean E = (1/n) Σ x_l (MEAN aggregation, Zhao thesis ch. 11 §2).
 * Summed with Neumaier compensation so equal multisets give equal means in any order.
 * @example mean([1, 5, 11, 12, 17]); // 9.2
 */
export function mean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  let sum = 0;
  let comp = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    const t = sum + x;
    comp += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return (sum + comp) / n;
}

/**
 * Median: the central value of the sorted scores; the mean of the two central values when n is
 * even (MEDIAN aggregation, Zhao thesis ch. 11 §2; NumPy's `np.median`).
 * @example median([2, 6, 7, 13, 18]); // 7
 */
export function median(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  const h = n >> 1;
  return n % 2 === 1 ? at(sorted, h) : (at(sorted, h - 1) + at(sorted, h)) / 2;
}

/**
 * Sample variance with Bessel's correction, s² = Σ(x − x̄)²/(n − 1) (two-pass).
 * @example sampleVariance([1, 2, 3, 4]); // 1.6666666666666667
 */
export function sampleVariance(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i]! - m;
    s += d * d;
  }
  return s / (n - 1);
}

/**
 * Percentile with linear interpolation between order statistics (NumPy's default `linear`
 * method): position h = (n − 1)·q/100, value x_⌊h⌋ + (h − ⌊h⌋)(x_⌈h⌉ − x_⌊h⌋).
 * Reference: Hyndman & Fan (1996), definition 7.
 * @example percentile([1, 2, 3, 4], 50); // 2.5
 */
export function percentile(xs: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(xs).sort();
  return percentileOfSorted(sorted, q);
}

/** {@link percentile} on an already ascending array. @example percentileOfSorted([1, 2], 50); // 1.5 */
export function percentileOfSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = ((n - 1) * q) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  const a = sorted[lo] ?? NaN;
  const b = sorted[hi] ?? NaN;
  if (a === b) return a; // also keeps ±Infinity from turning into NaN
  return a + (h - lo) * (b - a);
}

/**
 * Indices that sort `values` ascending, stably (equal values keep index order) — what
 * `Int32Array.from(indices).sort((a, b) => values[a] − values[b])` gives for finite values
 * without −0, in O(n) passes: LSD radix sort on the IEEE-754 bits mapped to unsigned order
 * (negative: all bits flipped; positive: sign bit flipped), 16 bits per pass, passes whose digit
 * is the same for every value skipped.
 * @example argsortAscending(Float64Array.of(3, 1, 2)); // Int32Array [1, 2, 0]
 */
export function argsortAscending(values: Float64Array): Int32Array {
  const n = values.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n).slice(); // little-endian: [lo, hi] per value
  for (let l = 0; l < n; l++) {
    const hi = words[2 * l + 1]!;
    if (hi & 0x80000000) {
      words[2 * l] = ~words[2 * l]! >>> 0;
      words[2 * l + 1] = ~hi >>> 0;
    } else words[2 * l + 1] = (hi | 0x80000000) >>> 0;
  }
  let idx = Int32Array.from({ length: n }, (_, l) => l);
  let next = new Int32Array(n);
  const count = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let l = 0; l < n; l++) count[((words[2 * l + word]! >>> shift) & 0xffff) + 1]!++;
    if (count.some((c) => c === n)) continue; // one digit for all: this pass keeps the order
    for (let b = 1; b < 65537; b++) count[b]! += count[b - 1]!;
    for (let t = 0; t < n; t++) {
      const l = idx[t]!;
      next[count[(words[2 * l + word]! >>> shift) & 0xffff]!++] = l;
    }
    const swap = idx;
    idx = next;
    next = swap;
  }
  return idx;
}
