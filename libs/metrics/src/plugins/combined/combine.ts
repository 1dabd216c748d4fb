/**
 * MENLI's combined metric, the one implementation and signature used by the leaderboard,
 * downloads, the robustness trade-off curve and the CLI (docs/science.md §3):
 *
 *   C = w·N + (1 − w)·M
 *
 * N is the NLI score and M the other metric, each min–max scaled to [0, 1] over a stated
 * normalisation set (a lower-is-better M is flipped, so 1 is best and C is higher-is-better).
 * The set is part of the signature because C changes when it does:
 * - leaderboard and downloads: every instance score of the phase (`scale:phase-minmax`);
 * - robustness trade-off curve: each phenomenon's pooled good and bad scores, as upstream
 *   `combine_1.py` (`scale:suite-phenomenon-minmax`);
 * - CLI: the instances of the files given (`scale:given-minmax`).
 *
 * Signature (one format everywhere):
 * `combined|nli:(<N signature>)|with:(<M signature>)|w:<w>|M-dir:<higher|lower>|scale:<set>-minmax[|N:[lo,hi]|M:[lo,hi]][|n:<cells>][|<extra>…]`
 * (bounds and n when the set is one population; the trade-off curve has one set per phenomenon).
 */

/** Options of {@link combineScores}. */
export interface CombineOptions {
  /** Whether higher values of the other metric are better (false for TER-like metrics). */
  otherHigherIsBetter: boolean;
}

/** Output of {@link combineScores}. */
export interface CombinedScores {
  /** C_i for each instance, in [0, 1]. */
  values: number[];
  /** Bounds the two components were scaled with (before flipping). */
  bounds: { nli: [number, number]; other: [number, number] };
  /** Size of the normalisation set. */
  n: number;
}

/** Default NLI weight per task kind (MENLI: MT peak at .2, M:1329–1334; summarisation .8, M:1466). */
export const DEFAULT_COMBINE_WEIGHT = { mt: 0.2, summarization: 0.8 } as const;

/** The combined metric's weight for a task kind: `configured` when set, else {@link DEFAULT_COMBINE_WEIGHT}. */
export function combineWeightFor(kind: string, configured?: number | null): number {
  if (configured !== null && configured !== undefined) return configured;
  return kind === 'summarization' ? DEFAULT_COMBINE_WEIGHT.summarization : DEFAULT_COMBINE_WEIGHT.mt;
}

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

/**
 * Min–max scaling to [0, 1] over `xs` itself; a constant set scales to 0.5 (it carries no
 * ranking information). `higherIsBetter = false` flips, so the lowest value scales to 1.
 * @example minMaxScale([2, 4, 6]) // [0, 0.5, 1]; minMaxScale([2, 4, 6], false) // [1, 0.5, 0]
 */
export function minMaxScale(xs: readonly number[], higherIsBetter = true): number[] {
  return scale(xs, bounds(xs), higherIsBetter);
}

function scale(xs: readonly number[], [lo, hi]: [number, number], higherIsBetter: boolean): number[] {
  if (hi === lo) return xs.map(() => 0.5);
  return xs.map((x) => (higherIsBetter ? (x - lo) / (hi - lo) : (hi - x) / (hi - lo)));
}

/**
 * C = w·N + (1 − w)·M (Chen & Eger 2022, M:1265–1271) over one normalisation set: N and M are
 * min–max scaled over all of `nli` and `other` respectively, a lower-is-better M flipped.
 *
 * @example
 * combineScores([0, 0.5, 1], [10, 30, 20], 0.2, { otherHigherIsBetter: true })
 * // values [0, 0.9, 0.6] (N = [0, .5, 1], M = [0, 1, .5]), bounds { nli: [0, 1], other: [10, 30] }, n 3
 */
export function combineScores(nli: readonly number[], other: readonly number[], w: number, options: CombineOptions): CombinedScores {
  if (!(w >= 0 && w <= 1)) throw new Error(`weight must lie in [0, 1], got ${w}`);
  if (nli.length !== other.length) throw new Error(`NLI has ${nli.length} scores, the other metric ${other.length}`);
  if (nli.length === 0) throw new Error('cannot combine an empty population');
  const nb = bounds(nli);
  const ob = bounds(other);
  const ns = scale(nli, nb, true);
  const os = scale(other, ob, options.otherHigherIsBetter);
  const values = ns.map((x, i) => w * x + (1 - w) * (os[i] ?? Number.NaN)); // same length: checked above
  return { values, bounds: { nli: nb, other: ob }, n: nli.length };
}

function fmt(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/** What {@link combinedSignature} pins. */
export interface CombinedSignatureParts {
  nliSignature: string;
  otherSignature: string;
  w: number;
  otherHigherIsBetter: boolean;
  /** The normalisation set: `phase`, `suite-phenomenon`, `given`. */
  scale: string;
  /** Bounds of the one normalisation set, when there is one. */
  bounds?: { nli: [number, number]; other: [number, number] };
  /** Size of the normalisation set (0: nothing to combine yet). */
  n?: number;
  /** Further `key:value` fields, e.g. `seed:42` or `corpus:mean`. */
  extra?: readonly string[];
}

/**
 * The combined metric's signature (format in this file's header).
 * @example combinedSignature({ nliSignature: 'nli|v1', otherSignature: 'ter|v1', w: 0.2, otherHigherIsBetter: false,
 *   scale: 'phase', bounds: { nli: [0, 1], other: [10, 30] }, n: 4 })
 * // 'combined|nli:(nli|v1)|with:(ter|v1)|w:0.2|M-dir:lower|scale:phase-minmax|N:[0,1]|M:[10,30]|n:4'
 */
export function combinedSignature(p: CombinedSignatureParts): string {
  const parts = [
    'combined',
    `nli:(${p.nliSignature})`,
    `with:(${p.otherSignature})`,
    `w:${fmt(p.w)}`,
    `M-dir:${p.otherHigherIsBetter ? 'higher' : 'lower'}`,
    `scale:${p.scale}-minmax`,
  ];
  if (p.bounds) parts.push(`N:[${fmt(p.bounds.nli[0])},${fmt(p.bounds.nli[1])}]`, `M:[${fmt(p.bounds.other[0])},${fmt(p.bounds.other[1])}]`);
  if (p.n !== undefined) parts.push(`n:${p.n}`);
  return [...parts, ...(p.extra ?? [])].join('|');
}

/**
 * The combined metric's corpus score of one system: the mean of its instance values (C is
 * defined per instance); NaN when any instance lacks a value (a component not yet scored).
 * @example combinedCorpus([0.8, 0.1]) // 0.45; combinedCorpus([0.8, NaN]) // NaN
 */
export function combinedCorpus(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) return Number.NaN;
    sum += v;
  }
  return values.length > 0 ? sum / values.length : Number.NaN;
}
