import {
  binomialTwoSidedP,
  chiSquareSf,
  erfc,
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedGammaP,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTTwoSidedP,
} from './special-functions';

describe('special functions', () => {
  it('computes ln Γ at half-integers and integers (Γ(1/2) = √π, Γ(10) = 9!)', () => {
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(1)).toBeCloseTo(0, 14);
  });

  it('matches the closed forms I_x(a,1) = x^a and I_x(1,b) = 1 − (1−x)^b of the incomplete beta', () => {
    expect(regularizedIncompleteBeta(0.3, 2.5, 1)).toBeCloseTo(Math.pow(0.3, 2.5), 13);
    expect(regularizedIncompleteBeta(0.7, 1, 3.5)).toBeCloseTo(1 - Math.pow(0.3, 3.5), 13);
    expect(regularizedIncompleteBeta(0.5, 7, 7)).toBeCloseTo(0.5, 13); // symmetry
  });

  it('computes P(1, x) = 1 − e^{−x} for the incomplete gamma', () => {
    expect(regularizedGammaP(1, 2)).toBeCloseTo(1 - Math.exp(-2), 14);
    expect(regularizedGammaP(1, 0.3)).toBeCloseTo(1 - Math.exp(-0.3), 14);
  });

  it('matches tabulated normal values, including the far tail with relative accuracy', () => {
    // Abramowitz & Stegun Table 26.1; Φ(−8) = 6.220960574271785e-16 (R: pnorm(-8))
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 14);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316301, 15);
    expect(normalCdf(-8) / 6.220960574271785e-16).toBeCloseTo(1, 10);
    expect(erfc(1)).toBeCloseTo(0.15729920705028513, 14);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.55)).toBeCloseTo(0.12566134685507402, 12);
  });

  it('matches the Student t closed forms for ν = 1 (Cauchy) and ν = 2', () => {
    for (const t of [-3, -0.4, 0.5, 2, 12]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 13);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13);
    }
  });

  it('gives p = 0.05 at the tabulated two-sided 5% critical values of t and χ²', () => {
    // t_{0.975} for ν = 1, 10, 30 (Fisher & Yates tables; R qt); χ²_{0.95,1} = 1.96² and χ²_{0.95,2} = −2 ln 0.05
    expect(studentTTwoSidedP(12.706204736174707, 1)).toBeCloseTo(0.05, 12);
    expect(studentTTwoSidedP(2.2281388519649385, 10)).toBeCloseTo(0.05, 10); // table value given to 17 digits here, p to ~1e-11
    expect(studentTTwoSidedP(2.0422724563012373, 30)).toBeCloseTo(0.05, 10);
    expect(chiSquareSf(3.841458820694124, 1)).toBeCloseTo(0.05, 12);
    expect(chiSquareSf(-2 * Math.log(0.05), 2)).toBeCloseTo(0.05, 12);
  });

  it('computes exact two-sided binomial p-values from sums of C(n, i)/2^n', () => {
    expect(binomialTwoSidedP(0, 10)).toBeCloseTo(2 / 1024, 14);
    expect(binomialTwoSidedP(1, 5)).toBeCloseTo(0.375, 13);
    expect(binomialTwoSidedP(4, 5)).toBeCloseTo(0.375, 13);
    expect(binomialTwoSidedP(5, 10)).toBe(1);
    expect(binomialTwoSidedP(0, 0)).toBe(1);
    // n = 10,000, k = 4,900: 2·P(X ≤ 4900) = 0.04653 (normal approx. with continuity: 2Φ(−1.99) = 0.0466)
    expect(binomialTwoSidedP(4900, 10000)).toBeGreaterThan(0.045);
    expect(binomialTwoSidedP(4900, 10000)).toBeLessThan(0.048);
  });
});
