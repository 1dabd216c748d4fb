/**
 * N-gram counting on integer ids. Tokens (words or characters) of one segment and its
 * references are mapped to small ids; an n-gram becomes the number Σ id·B^k, which is
 * exact while B^n < 2^53. Sorted key arrays are then intersected as multisets, which
 * gives Σ min(count_hyp, count_ref) — the clipped counts of BLEU and chrF.
 * When the vocabulary is too large for exact numeric keys, string keys are used instead.
 */

/** Sorted n-gram keys of one order: numbers (exact) or strings (fallback). */
export type NgramKeys = Float64Array | string[];

const MAX_BASE = new Map<number, number>();

/** Largest base B with B^order below 2^53, so numeric keys stay exact (memoised per order). */
export function maxBase(order: number): number {
  let b = MAX_BASE.get(order);
  if (b === undefined) {
    b = Math.floor(Math.pow(2, 53 / order));
    while (Math.pow(b, order) >= 2 ** 53) b--;
    MAX_BASE.set(order, b);
  }
  return b;
}

/**
 * Keys of every order 1..maxOrder for a sequence of ids (each ≥ 1, below `base`),
 * each array sorted ascending. Index `n - 1` holds the n-grams.
 */
export function numericNgramKeys(ids: ArrayLike<number>, maxOrder: number, base: number): Float64Array[] {
  const len = ids.length;
  const out: Float64Array[] = [];
  let prev: Float64Array = new Float64Array(len);
  for (let i = 0; i < len; i++) prev[i] = ids[i];
  for (let n = 1; n <= maxOrder; n++) {
    const count = Math.max(0, len - n + 1);
    let cur: Float64Array;
    if (n === 1) cur = prev;
    else {
      cur = new Float64Array(count);
      for (let i = 0; i < count; i++) cur[i] = prev[i] * base + ids[i + n - 1];
    }
    const keys = cur.slice(0, count);
    sortPrefix(keys, count);
    out.push(keys);
    prev = cur;
  }
  return out;
}

/** Keys of every order 1..maxOrder for a token sequence, as joined strings, sorted. */
export function stringNgramKeys(tokens: readonly string[], maxOrder: number, sep: string): string[][] {
  const out: string[][] = [];
  for (let n = 1; n <= maxOrder; n++) {
    const keys: string[] = [];
    for (let i = 0; i + n <= tokens.length; i++) keys.push(n === 1 ? tokens[i] : tokens.slice(i, i + n).join(sep));
    keys.sort();
    out.push(keys);
  }
  return out;
}

/**
 * Size of the multiset intersection of two sorted key arrays: Σ min(count_a, count_b).
 * `na`/`nb` limit the comparison to sorted prefixes (reused buffers), without a subarray.
 */
export function sortedIntersectionSize(a: NgramKeys, b: NgramKeys, na = a.length, nb = b.length): number {
  let i = 0;
  let j = 0;
  let matches = 0;
  while (i < na && j < nb) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      matches++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return matches;
}


// Scratch buffers for the single-reference fast path: unsorted keys (updated in place from
// order n−1 to n) and their sorted copies.
let hypKeysBuf = new Float64Array(256);
let refKeysBuf = new Float64Array(256);
let hypSorted = new Float64Array(256);
let refSorted = new Float64Array(256);

function insertionSort(a: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const x = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > x) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
}

/** Sorts a[0..n) ascending in place: insertion sort for short runs (most segments), else native. */
function sortPrefix(a: Float64Array, n: number): void {
  if (n <= 48) insertionSort(a, n);
  else a.subarray(0, n).sort();
}

/**
 * Multiset intersection sizes Σ min(count_h, count_r) of the n-grams of two id sequences, for
 * n = 1..maxOrder (0 where either side has no n-gram), using scratch buffers instead of
 * per-segment allocations. Requires base^maxOrder < 2^53 (see {@link maxBase}).
 * Example: `clippedMatches([1, 2], [1, 3], 2, 4)` → `[1, 0]`.
 */
export function clippedMatches(h: ArrayLike<number>, r: ArrayLike<number>, maxOrder: number, base: number): number[] {
  const correct = new Array<number>(maxOrder).fill(0);
  if (hypKeysBuf.length < h.length) {
    hypKeysBuf = new Float64Array(h.length * 2);
    hypSorted = new Float64Array(h.length * 2);
  }
  if (refKeysBuf.length < r.length) {
    refKeysBuf = new Float64Array(r.length * 2);
    refSorted = new Float64Array(r.length * 2);
  }
  for (let i = 0; i < h.length; i++) hypKeysBuf[i] = h[i];
  for (let i = 0; i < r.length; i++) refKeysBuf[i] = r[i];
  for (let n = 1; n <= maxOrder; n++) {
    const nh = h.length - n + 1;
    const nr = r.length - n + 1;
    if (nh <= 0 || nr <= 0) break;
    if (n > 1) {
      for (let i = 0; i < nh; i++) hypKeysBuf[i] = hypKeysBuf[i] * base + h[i + n - 1];
      for (let i = 0; i < nr; i++) refKeysBuf[i] = refKeysBuf[i] * base + r[i + n - 1];
    }
    hypSorted.set(hypKeysBuf.subarray(0, nh));
    refSorted.set(refKeysBuf.subarray(0, nr));
    sortPrefix(hypSorted, nh);
    sortPrefix(refSorted, nr);
    correct[n - 1] = sortedIntersectionSize(hypSorted, refSorted, nh, nr);
  }
  return correct;
}

