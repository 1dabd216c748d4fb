/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * N-gram counting by hashing, shared by BLEU and chrF.
 *
 * Tokens (characters or words) are positive integer ids. An n-gram is identified by the pair
 * (id of its (n−1)-gram prefix, id of its last token); pairs are interned in one open-addressing
 * hash table, so every distinct n-gram of the references gets its own small id and a count.
 * Keys are compared exactly (both integers of the pair), so a hash collision only costs a probe,
 * never a wrong count, and there is no limit on the vocabulary (unlike numeric keys Σ id·B^k,
 * which must stay below 2^53). A hypothesis n-gram whose prefix is absent from the references
 * cannot be present either, so it is skipped at every higher order without a lookup.
 *
 * The table ({@link PairTable}) and the count arrays are module-level scratch reused across calls.
 */
import { PairTable } from './pair-table';

/** Distinct n-grams of the references: (prefix id, token) → n-gram id. */
const ngrams = new PairTable();
/** Per-n-gram-id counts: what is left to match (clip), and one reference's counts (several references). */
let avail = new Int32Array(1024);
let refCount = new Int32Array(1024);
/** Id of the (n−1)-gram starting at each position (0 before order 1; −1: absent from the references). */
let hypPrefix = new Int32Array(0);
let refPrefix = new Int32Array(0);

/** Fresh table and zeroed counts for a call that will intern at most `entries` n-grams. */
function beginCall(entries: number): void {
  ngrams.reset();
  if (avail.length < entries + 1) {
    avail = new Int32Array(2 * entries + 1);
    refCount = new Int32Array(2 * entries + 1);
  } else {
    avail.fill(0, 0, entries + 1);
    refCount.fill(0, 0, entries + 1);
  }
}

function ensurePrefixBuffers(nh: number, nr: number): void {
  if (hypPrefix.length < nh) hypPrefix = new Int32Array(2 * nh);
  if (refPrefix.length < nr) refPrefix = new Int32Array(2 * nr);
}

/** Number of n-grams of orders 1..maxOrder in a sequence of `len` tokens. */
function ngramCount(len: number, maxOrder: number): number {
  let total = 0;
  for (let n = 1; n <= maxOrder && n <= len; n++) total += len - n + 1;
  return total;
}

/** Interns the n-grams of order n of ref[0..nr) from the prefix ids of order n − 1, counting into `counts`. */
function countRefOrder(ref: ArrayLike<number>, nr: number, n: number, counts: Int32Array): void {
  for (let i = 0; i + n <= nr; i++) {
    const id = ngrams.intern(refPrefix[i]!, ref[i + n - 1]!);
    refPrefix[i] = id;
    counts[id]!++;
  }
}

/** Matches hypothesis n-grams of order n against `avail`, consuming it; returns the clipped count. */
function matchHypOrder(hyp: ArrayLike<number>, nh: number, n: number): number {
  let matches = 0;
  for (let i = 0; i + n <= nh; i++) {
    const p = hypPrefix[i]!;
    if (p < 0) continue;
    const id = ngrams.get(p, hyp[i + n - 1]!);
    hypPrefix[i] = id;
    if (id > 0 && avail[id]! > 0) {
      avail[id]!--;
      matches++;
    }
  }
  return matches;
}

/**
 * Clipped matches Σ_g min(count_hyp(g), count_ref(g)) over the n-grams g of each order
 * n = 1..maxOrder, written to `out[n − 1]` (0 where either side has no n-gram of that order).
 * Token ids must be positive int32 values; only hyp[0..nh) and ref[0..nr) are read, so the
 * callers can pass reused buffers.
 * Example: `clippedMatches([1, 2], 2, [1, 3], 2, 2, out)` sets `out` to `[1, 0]`.
 */
export function clippedMatches(
  hyp: ArrayLike<number>,
  nh: number,
  ref: ArrayLike<number>,
  nr: number,
  maxOrder: number,
  out: number[],
): void {
  for (let n = 0; n < maxOrder; n++) out[n] = 0;
  beginCall(ngramCount(nr, maxOrder));
  ensurePrefixBuffers(nh, nr);
  hypPrefix.fill(0, 0, nh);
  refPrefix.fill(0, 0, nr);
  for (let n = 1; n <= maxOrder; n++) {
    if (nh < n || nr < n) break;
    countRefOrder(ref, nr, n, avail);
    out[n - 1] = matchHypOrder(hyp, nh, n);
  }
}

/**
 * As {@link clippedMatches} with several references: each hypothesis n-gram count is clipped by
 * its maximum count over the references (BLEU's multi-reference clipping).
 * Example: hyp `[1, 2, 3, 4]`, refs `[1, 2, 5, 6]` and `[5, 6, 3, 4]`, order 2 → `[4, 2]`.
 */
export function clippedMatchesMaxRef(hyp: ArrayLike<number>, refs: readonly ArrayLike<number>[], maxOrder: number, out: number[]): void {
  for (let n = 0; n < maxOrder; n++) out[n] = 0;
  let entries = 0;
  let longest = 0;
  for (const r of refs) {
    entries += ngramCount(r.length, maxOrder);
    longest = Math.max(longest, r.length);
  }
  beginCall(entries);
  const nh = hyp.length;
  ensurePrefixBuffers(nh, longest);
  for (const r of refs) {
    const nr = r.length;
    refPrefix.fill(0, 0, nr);
    for (let n = 1; n <= maxOrder && n <= nr; n++) countRefOrder(r, nr, n, refCount);
    // Keep the maximum count per n-gram over the references seen so far.
    for (let id = 1; id <= ngrams.size; id++) {
      if (refCount[id]! > avail[id]!) avail[id] = refCount[id]!;
      refCount[id] = 0;
    }
  }
  hypPrefix.fill(0, 0, nh);
  for (let n = 1; n <= maxOrder; n++) {
    if (nh < n) break;
    out[n - 1] = matchHypOrder(hyp, nh, n);
  }
}
