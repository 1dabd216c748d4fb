/** Options of {@link combineScores}. */
export interface CombineOptions {
  /** Whether higher values of the other metric are better (false for TER-like metrics). */
  otherHigherIsBetter: boolean;
  /** Names the scaling population in the signature, e.g. `phase:42`; default `given`. */
  population?: string;
}

/** Output of {@link combineScores}. */
export interface CombinedScores {
  /** C_i for each instance, in [0, 1]. */
  values: number[];
  /** Signature fragment pinning the weight, the scaling population and its bounds. */
  signature: string;
  /** Bounds the two components were scaled with. */
  bounds: { nli: [number, number]; other: [number, number] };
}

/** Default NLI weight per task kind (MENLI: MT peak at .2, M:1329–1334; summarisation .8, M:1466). */
export const DEFAULT_COMBINE_WEIGHT = { mt: 0.2, summarization: 0.8 } as const;

function bounds(xs: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (!Number.isFinite(x)) throw new Error(`cannot combine a non-finite score (${x})`);
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

/** Min–max scaling to [0, 1]; a constant population scales to 0.5 (it carries no ranking information). */
function scale(xs: readonly number[], [lo, hi]: [number, number], higherIsBetter: boolean): number[] {
  if (hi === lo) return xs.map(() => 0.5);
  return xs.map((x) => (higherIsBetter ? (x - lo) / (hi - lo) : (hi - x) / (hi - lo)));
}

function fmt(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/**
 * MENLI's combined metric (Chen & Eger 2022, M:1265–1271): C = w·N + (1 − w)·M, where N and M
 * are the NLI and the other metric's instance scores min–max scaled to [0, 1] over the whole
 * population given (Podium passes all instance scores of a phase). A lower-is-better metric
 * is flipped so that 1 is best. The population size and both bounds go into the signature,
 * since C changes when the population does.
 *
 * @example
 * combineScores([0, 0.5, 1], [10, 30, 20], 0.2, { otherHigherIsBetter: true })
 * // values [0, 0.9, 0.6] (N = [0, .5, 1], M = [0, 1, .5]); signature 'combined|w:0.2|scale:minmax|pop:given(n=3)|nli:[0,1]|other:[10,30]|other-dir:higher'
 */
export function combineScores(
  nli: readonly number[],
  other: readonly number[],
  w: number,
  options: CombineOptions,
): CombinedScores {
  if (!(w >= 0 && w <= 1)) throw new Error(`weight must lie in [0, 1], got ${w}`);
  if (nli.length !== other.length) throw new Error(`NLI has ${nli.length} scores, the other metric ${other.length}`);
  if (nli.length === 0) throw new Error('cannot combine an empty population');
  const nb = bounds(nli);
  const ob = bounds(other);
  const ns = scale(nli, nb, true);
  const os = scale(other, ob, options.otherHigherIsBetter);
  const values = ns.map((x, i) => w * x + (1 - w) * os[i]);
  const signature = [
    'combined',
    `w:${fmt(w)}`,
    'scale:minmax',
    `pop:${options.population ?? 'given'}(n=${nli.length})`,
    `nli:[${fmt(nb[0])},${fmt(nb[1])}]`,
    `other:[${fmt(ob[0])},${fmt(ob[1])}]`,
    `other-dir:${options.otherHigherIsBetter ? 'higher' : 'lower'}`,
  ].join('|');
  return { values, signature, bounds: { nli: nb, other: ob } };
}
