/** Small pure helpers of bench:platform: percentiles, growth exponents, extrapolation. */

/**
 * Nearest-rank percentile: the smallest value such that at least p % of the values are ≤ it,
 * i.e. sorted[ceil(p/100 · n) − 1] (p = 0 gives the minimum). NaN for no values.
 * Reference: https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method
 * @example percentile([15, 20, 35, 40, 50], 30) // 20
 */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in [0, 100], got ${p}`);
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  return sorted[rank - 1] ?? NaN;
}

/**
 * Growth exponent b of y ∝ x^b through two measurements (x1, y1), (x2, y2):
 * b = ln(y2/y1) / ln(x2/x1). NaN when a value is not positive or x1 = x2.
 * @example growthExponent(1000, 2, 4000, 8) // 1 (linear)
 */
export function growthExponent(x1: number, y1: number, x2: number, y2: number): number {
  if (!(x1 > 0 && x2 > 0 && y1 > 0 && y2 > 0) || x1 === x2) return NaN;
  return Math.log(y2 / y1) / Math.log(x2 / x1);
}

/**
 * Extrapolates a cost measured at (x1, y1) and (x2, y2) to x: y2 · (x / x2)^max(b, 1), b the
 * growth exponent. A cost that grows less than linearly between two small sizes usually carries
 * a fixed overhead; for a large x the linear term dominates, so the exponent is at least 1
 * (the estimate never credits sub-linear growth). With one size (or no usable exponent) linear.
 */
export function extrapolate(x1: number, y1: number, x2: number, y2: number, x: number): { value: number; exponent: number } {
  const b = growthExponent(x1, y1, x2, y2);
  const exponent = Number.isFinite(b) ? Math.max(b, 1) : 1;
  return { value: y2 * Math.pow(x / x2, exponent), exponent };
}

/** Count, rate and latency percentiles (ms) of a load measurement. */
export interface LatencySummary {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export function summariseLatencies(latenciesMs: ArrayLike<number>, seconds: number): LatencySummary {
  return {
    requests: latenciesMs.length,
    perSecond: seconds > 0 ? latenciesMs.length / seconds : NaN,
    p50: percentile(latenciesMs, 50),
    p95: percentile(latenciesMs, 95),
    p99: percentile(latenciesMs, 99),
  };
}
