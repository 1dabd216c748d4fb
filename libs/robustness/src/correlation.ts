import { kendallTau } from '@podium/ranking';
import { at } from '@podium/contracts';

/**
 * Pearson's product-moment correlation r = cov(x, y) / (σx σy), computed with centred sums.
 * Returns NaN when either input is constant or has fewer than two values.
 * @example pearson([1, 2, 3], [2, 4, 7]) // 0.9934
 */
export function pearson(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y);
  const n = x.length;
  if (n < 2) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += at(x, i);
    my += at(y, i);
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = at(x, i) - mx;
    const dy = at(y, i) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/**
 * Kendall's τ-b, which corrects for ties (scipy.stats.kendalltau's default):
 * τb = (C − D) / sqrt((n0 − n1)(n0 − n2)), with C/D the concordant/discordant pairs,
 * n0 = n(n−1)/2, n1 and n2 the pairs tied in x and in y. O(n²), fine for a few thousand
 * segments. NaN when either input is constant.
 * @example kendallTauB([1, 2, 3, 4], [1, 3, 2, 4]) // 0.6667
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y);
  // The ranking library's τ is this same tie-corrected τ-b.
  return kendallTau(x, y);
}

function checkPaired(x: readonly number[], y: readonly number[]): void {
  if (x.length !== y.length) throw new RangeError(`paired inputs differ in length: ${x.length} vs ${y.length}`);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new RangeError(`non-finite value at index ${i}`);
  }
}
