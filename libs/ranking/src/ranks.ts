/**
 * Competition ranks ("1224") of aggregate values where larger is better: rank_i = 1 + #{j :
 * v_j > v_i}. Values within `tolerance` (relative to the largest finite |v|) count as tied and
 * share the best rank of their group, so the ranks describe a total order with ties.
 * @example rankDescending([0.2, 0.5, 0.5]); // [3, 1, 1]
 */
export function rankDescending(values: ArrayLike<number>, tolerance = 0): number[] {
  // Indexed reads (i, j < k): per-resample kernel, for-of over a copy measured 2.5× slower.
  // `?? NaN` keeps the semantics of a hole (undefined and NaN compare false alike) at no cost.
  const k = values.length;
  let scale = 0;
  for (let i = 0; i < k; i++) {
    const v = values[i] ?? NaN;
    if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  }
  const eps = tolerance * scale;
  const ranks = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    let better = 0;
    const vi = values[i] ?? NaN;
    for (let j = 0; j < k; j++) {
      const vj = values[j] ?? NaN;
      if (vj > vi && !(Number.isFinite(vj) && Number.isFinite(vi) && vj - vi <= eps)) better++;
    }
    ranks[i] = 1 + better;
  }
  return ranks;
}

/**
 * Kendall's τ_b between two paired samples (ties adjusted), as SciPy's `kendalltau` default.
 *
 * Formula: τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁/n₂ = pairs tied in x/y.
 * Reference: Kendall (1945), Biometrika 33:239; O(n²) pair count.
 * Returns NaN when either sample is constant.
 * @example kendallTau([1, 2, 3], [1, 3, 2]); // 0.3333333333333333
 */
export function kendallTau(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (y.length !== n) throw new RangeError('kendallTau: samples differ in length');
  const ys = Array.from(y);
  const points = Array.from(x, (xi, i) => [xi, ys[i] ?? NaN] as const); // i < n = y.length: never NaN
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (const [i, [xi, yi]] of points.entries()) {
    for (const [xj, yj] of points.slice(i + 1)) {
      const dx = Math.sign(xi - xj);
      const dy = Math.sign(yi - yj);
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? NaN : (concordant - discordant) / denom;
}
