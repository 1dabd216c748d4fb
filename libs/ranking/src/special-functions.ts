/**
 * Special functions behind the p-values: log-gamma, regularised incomplete beta and gamma,
 * and the normal, Student t, chi-square and binomial distributions built on them.
 * Algorithms follow Press et al., *Numerical Recipes* (3rd ed., 2007), §6.1–6.4 and §6.14.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/**
 * Natural log of the gamma function, ln Γ(x), for x > 0 (reflection for x < 0.5).
 *
 * Formula: Lanczos approximation, g = 7, 9 coefficients (relative error ≈ 1e-15).
 * Reference: Lanczos (1964), SIAM J. Numer. Anal. B 1:86; coefficients as in Press et al. §6.1.
 * @example logGamma(0.5); // 0.5723649429247001 = ln √π
 */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = 0;
  LANCZOS.forEach((c, i) => (a += i === 0 ? c : c / (z + i)));
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const EPS = 1e-15;
const TINY = 1e-300;
const MAX_ITER = 10000;

function betaContinuedFraction(a: number, b: number, x: number): number {
  // Modified Lentz evaluation of the continued fraction for I_x(a, b) (Press et al. §6.4).
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) return h;
  }
  return h;
}

/**
 * Regularised incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b), for a, b > 0, 0 ≤ x ≤ 1.
 *
 * Formula: continued fraction (Lentz), using I_x(a,b) = 1 − I_{1−x}(b,a) on the slow side.
 * Reference: Press et al., Numerical Recipes 3rd ed., §6.4.
 * @example regularizedIncompleteBeta(0.3, 2, 1); // 0.09 = 0.3²
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/**
 * Regularised lower incomplete gamma P(a, x) = γ(a, x) / Γ(a).
 *
 * Formula: series for x < a + 1, continued fraction for Q = 1 − P otherwise.
 * Reference: Press et al., Numerical Recipes 3rd ed., §6.2.
 * @example regularizedGammaP(1, 2); // 1 − e^{-2} = 0.8646647167633873
 */
export function regularizedGammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x < a + 1) return gammaSeries(a, x);
  return 1 - gammaContinuedFraction(a, x);
}

/**
 * Regularised upper incomplete gamma Q(a, x) = 1 − P(a, x), accurate in the far tail.
 * Reference: Press et al., Numerical Recipes 3rd ed., §6.2.
 * @example regularizedGammaQ(1, 2); // e^{-2} = 0.1353352832366127
 */
export function regularizedGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) return 1 - gammaSeries(a, x);
  return gammaContinuedFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < MAX_ITER; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/**
 * Complementary error function erfc(x) = 1 − erf(x), accurate to ~1e-15 relative in the tails.
 * Formula: erfc(x) = Q(1/2, x²) for x ≥ 0; erfc(−x) = 2 − erfc(x).
 * Reference: Abramowitz & Stegun 7.1.2 and 6.5.17.
 * @example erfc(1); // 0.15729920705028513
 */
export function erfc(x: number): number {
  if (x >= 0) return regularizedGammaQ(0.5, x * x);
  return 1 + regularizedGammaP(0.5, x * x);
}

/**
 * Standard normal cumulative distribution Φ(z).
 * Formula: Φ(z) = erfc(−z/√2)/2. Reference: Abramowitz & Stegun 26.2.29.
 * @example normalCdf(1.959963984540054); // 0.975
 */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/**
 * Standard normal density φ(z) = exp(−z²/2)/√(2π).
 * @example normalPdf(0); // 0.3989422804014327
 */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/**
 * Standard normal quantile Φ⁻¹(p), 0 < p < 1.
 * Formula: Acklam's rational approximation (rel. error 1.15e-9) plus one Halley refinement step.
 * Reference: P. J. Acklam, "An algorithm for computing the inverse normal CDF" (2003).
 * @example normalQuantile(0.975); // 1.959963984540054
 */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239] as const;
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1] as const;
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const;
  const pLow = 0.02425;
  let x: number;
  if (p < pLow) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - pLow) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/**
 * Two-sided p-value of Student's t: P(|T_ν| ≥ |t|).
 * Formula: I_{ν/(ν+t²)}(ν/2, 1/2). Reference: Abramowitz & Stegun 26.7.1 with 26.5.27.
 * @example studentTTwoSidedP(12.706204736174707, 1); // 0.05
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * Student t cumulative distribution P(T_ν ≤ t).
 * Formula: 1 − I_{ν/(ν+t²)}(ν/2, 1/2)/2 for t ≥ 0, symmetric otherwise.
 * @example studentTCdf(1, 1); // 0.75 (Cauchy: 1/2 + atan(1)/π)
 */
export function studentTCdf(t: number, df: number): number {
  const half = 0.5 * studentTTwoSidedP(t, df);
  return t >= 0 ? 1 - half : half;
}

/**
 * Chi-square survival function P(χ²_k ≥ x).
 * Formula: Q(k/2, x/2). Reference: Abramowitz & Stegun 26.4.19.
 * @example chiSquareSf(3.841458820694124, 1); // 0.05
 */
export function chiSquareSf(x: number, k: number): number {
  if (x <= 0) return 1;
  return regularizedGammaQ(k / 2, x / 2);
}

/**
 * Exact two-sided binomial test p-value for H0: p = 1/2 (as SciPy's `binomtest(k, n).pvalue`).
 *
 * Formula: min(1, 2·P(X ≤ min(k, n−k))), X ~ Bin(n, 1/2), with P(X ≤ m) = I_{1/2}(n−m, m+1).
 * Reference: Abramowitz & Stegun 26.5.24; Conover, Practical Nonparametric Statistics, §3.4.
 * @example binomialTwoSidedP(1, 5); // 0.375 = 2·(1+5)/32
 */
export function binomialTwoSidedP(k: number, n: number): number {
  if (n <= 0) return 1;
  const m = Math.min(k, n - k);
  if (2 * m >= n) return 1;
  return Math.min(1, 2 * regularizedIncompleteBeta(0.5, n - m, m + 1));
}
