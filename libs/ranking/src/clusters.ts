/**
 * Significance clusters over systems ordered by an aggregate (larger is better).
 *
 * Rule: sort by `values` descending; put a boundary between positions p and p + 1 only when every
 * system above it is significantly better than every system below it (`better(a, b)`, usually a
 * corrected p < α with the test's direction agreeing). Cluster ids count boundaries above: 1 is
 * the top cluster. Ties in `values` keep input order and can never be separated.
 * Reference: the "clusters" of WMT human evaluation (Bojar et al. 2013, WMT §3.3), made strict.
 * @example clusters([3, 2, 1], (a, b) => a === 0); // [1, 2, 2]
 */
export function clusters(values: ArrayLike<number>, better: (a: number, b: number) => boolean): number[] {
  const sorted = Array.from(values, (v, i) => ({ v, i })).sort((a, b) => (a.v === b.v ? a.i - b.i : b.v > a.v ? 1 : -1));
  const out = new Array<number>(values.length);
  let id = 1;
  let previous: { v: number; i: number } | undefined;
  for (const [p, current] of sorted.entries()) {
    if (previous !== undefined && previous.v !== current.v) {
      const below = sorted.slice(p);
      if (sorted.slice(0, p).every((a) => below.every((b) => better(a.i, b.i)))) id++;
    }
    out[current.i] = id;
    previous = current;
  }
  return out;
}
