/**
 * Seeded pseudo-random numbers for suites and bootstrap intervals: the one generator of
 * `@podium/ranking` (mulberry32), seen through the small interface the generators use, so a
 * bootstrap interval or a generated suite is reproducible from its recorded seed.
 */
import { mulberry32 } from '@podium/ranking';
import { at } from '@podium/contracts';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/** Creates a {@link Rng} from a 32-bit seed (mulberry32 of `@podium/ranking`); equal seeds give equal sequences. */
export function createRng(seed: number): Rng {
  const rng = mulberry32(seed);
  const int = (n: number): number => rng.nextInt(n);
  return {
    next: () => rng.next(),
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty array');
      return at(items, int(items.length));
    },
  };
}

/** Derives an independent seed for a named sub-stream (FNV-1a of the name mixed with the seed). */
export function deriveSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Quantile of ascending-sorted values with linear interpolation between order statistics
 * (numpy's default `linear` method).
 */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return at(sorted, lo) + (at(sorted, hi) - at(sorted, lo)) * (pos - lo);
}
