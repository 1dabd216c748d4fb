/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: bootstrapCounts draws n indices below n per resample and shuffleInPlace swaps indices below its length; a check per access would cost throughput (npm run bench:ranking-scale) */
/**
 * Seeded pseudo-random numbers for every stochastic step in ranking (bootstrap, randomisation,
 * Elo orders, simulations), so results are reproducible from the recorded seed.
 */

/** A seeded generator of uniform numbers. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform unsigned 32-bit integer. */
  nextUint32(): number;
  /** Uniform integer in [0, n), for n ≤ 2^32 (bias below n/2^32). */
  nextInt(n: number): number;
  /** Standard normal N(0, 1) draw (Box–Muller). */
  nextNormal(): number;
}

// Math's functions held in module constants: the hot loops below call them tens of millions of
// times, and a global lookup inside a vm context (Jest runs every spec in one) is a slow
// interceptor call each time, about 30 times slower than here. Plain Node is unaffected.
const { imul, floor } = Math;

/**
 * mulberry32: a 32-bit-state generator (Tommy Ettinger, public domain), period 2^32, passes
 * gjrand/PractRand to 2^32 outputs — ample for resampling counts in the millions.
 *
 * Formula: s ← s + 0x6D2B79F5; z = (s ⊕ s≫15)·(s|1); z ⊕= z + (z ⊕ z≫7)·(z|61); out = z ⊕ z≫14.
 * Reference: https://gist.github.com/tommyettinger/46a874533244883189143505d203312c
 * @example const rng = mulberry32(12345); rng.next(); // 0 ≤ x < 1, same sequence every run
 */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  let spare: number | null = null;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = imul(z ^ (z >>> 15), z | 1);
    z ^= z + imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
  const next = (): number => nextUint32() / 4294967296;
  return {
    next,
    nextUint32,
    nextInt: (n: number) => floor(next() * n),
    nextNormal: () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = next();
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
}

/**
 * Fisher–Yates shuffle in place, driven by `rng`; returns `xs`.
 * Reference: Knuth, TAOCP vol. 2, Algorithm P.
 * @example shuffleInPlace([1, 2, 3], mulberry32(1));
 */
export function shuffleInPlace<A extends unknown[] | Int32Array | Float64Array>(xs: A, rng: Rng): A {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
  return xs;
}

/**
 * Multinomial bootstrap counts: how many times each of `n` instances is drawn in a resample of
 * size `n` with replacement (equivalent to drawing n indices). Writes into `out`.
 * @example const c = new Int32Array(5); bootstrapCounts(5, mulberry32(1), c); // sums to 5
 */
export function bootstrapCounts(n: number, rng: Rng, out: Int32Array): Int32Array {
  out.fill(0);
  for (let d = 0; d < n; d++) out[rng.nextInt(n)]!++;
  return out;
}
