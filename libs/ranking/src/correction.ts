/**
 * The multiple-comparison corrections over a family of p-values, in the order selectors list them
 * (the default first): the one list of them (the leaderboard's `PValueCorrection`, the GraphQL enum
 * and `pValueCorrections` query, and the web's selector are built from it).
 */
export const CORRECTIONS = [
  { key: 'holm', label: 'Holm (family-wise)' },
  { key: 'bh', label: 'Benjamini–Hochberg (FDR)' },
  { key: 'none', label: 'None' },
] as const satisfies readonly { key: string; label: string }[];

/** Multiple-comparison correction over a family of p-values. */
export type Correction = (typeof CORRECTIONS)[number]['key'];

/** The p-values (NaN read as 1) with their indices, ascending by p then index. */
function order(ps: readonly number[]): { p: number; i: number }[] {
  return ps.map((p, i) => ({ p: clean(p), i })).sort((a, b) => a.p - b.p || a.i - b.i);
}

function clean(p: number): number {
  return Number.isNaN(p) ? 1 : p;
}

/**
 * Holm's step-down adjusted p-values (controls the family-wise error rate).
 *
 * Formula: sort p_(1) ≤ … ≤ p_(m); p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j)).
 * Reference: Holm (1979), Scand. J. Statist. 6:65; matches statsmodels `multipletests(method='holm')`.
 * NaN p-values are treated as 1.
 * @example holm([0.01, 0.04, 0.03]); // [0.03, 0.06, 0.06]
 */
export function holm(ps: readonly number[]): number[] {
  const m = ps.length;
  const out = new Array<number>(m);
  let running = 0;
  for (const [rank, { p, i }] of order(ps).entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  }
  return out;
}

/**
 * Benjamini–Hochberg step-up adjusted p-values (controls the false discovery rate).
 *
 * Formula: p̃_(i) = min_{j ≥ i} min(1, m·p_(j)/j).
 * Reference: Benjamini & Hochberg (1995), JRSS B 57:289; matches statsmodels `fdr_bh`.
 * @example benjaminiHochberg([0.01, 0.04, 0.03]); // [0.03, 0.04, 0.04]
 */
export function benjaminiHochberg(ps: readonly number[]): number[] {
  const m = ps.length;
  const out = new Array<number>(m);
  let running = 1;
  for (const [r, { p, i }] of [...order(ps).entries()].reverse()) {
    running = Math.min(running, Math.min(1, (m * p) / (r + 1)));
    out[i] = running;
  }
  return out;
}

/**
 * Applies the chosen correction; `none` returns the p-values unchanged.
 * @example adjustPValues([0.01, 0.04], 'holm'); // [0.02, 0.04]
 */
export function adjustPValues(ps: readonly number[], correction: Correction): number[] {
  if (correction === 'holm') return holm(ps);
  if (correction === 'bh') return benjaminiHochberg(ps);
  return ps.slice();
}
