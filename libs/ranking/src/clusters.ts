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
  const k = values.length;
  const sorted = Array.from({ length: k }, (_, i) => i).sort((a, b) => {
    const va = values[a]!;
    const vb = values[b]!;
    return va === vb ? a - b : vb > va ? 1 : -1;
  });
  const out = new Array<number>(k);
  let id = 1;
  for (let p = 0; p < k; p++) {
    if (p > 0 && values[sorted[p - 1]!] !== values[sorted[p]!]) {
      let boundary = true;
      for (let a = 0; a < p && boundary; a++) {
        for (let b = p; b < k; b++) {
          if (!better(sorted[a]!, sorted[b]!)) {
            boundary = false;
            break;
          }
        }
      }
      if (boundary) id++;
    }
    out[sorted[p]!] = id;
  }
  return out;
}
