/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the bootstrap and randomisation loops (R × n), indices bounded by the loops over those arrays; a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking */
import { at } from './checked';
import { bootstrapCounts, mulberry32 } from './prng';

/** Options for the seeded resampling tests. */
export interface ResamplingOptions {
  /** Number of bootstrap resamples or randomisation trials. Default 1,000. */
  resamples?: number;
  /** PRNG seed (mulberry32). Default 12345. */
  seed?: number;
}

/** Result of a resampling test: p and the observed difference (a − b). */
export interface ResamplingResult {
  p: number;
  observed: number;
}

/**
 * Corpus-level score from per-instance sufficient statistics (e.g. BLEU n-gram matches and
 * lengths). Contract: additive statistics — f(rows) must equal f([column sums of rows]); the
 * resampling tests call it with a single row of (weighted) column sums.
 */
export type CorpusFromStats = (rows: number[][]) => number;

/**
 * Resampling p-value: p = (#{s_r ≥ observed} + 1)/(R + 1) (Noreen 1989; multeval).
 * sacreBLEU counts s_r > observed instead; the two differ only on exact ties, e.g. a system
 * compared with itself, where ≥ gives p = 1 and > would give 1/(R + 1). A relative slack of
 * 1e-12 makes floating-point re-computations of the observed value count as ties.
 */
export function pValueFromSamples(samples: ArrayLike<number>, observed: number): number {
  const threshold = observed - 1e-12 * Math.max(1, Math.abs(observed));
  let c = 0;
  for (let r = 0; r < samples.length; r++) if (samples[r]! >= threshold) c++;
  return (c + 1) / (samples.length + 1);
}

/**
 * Bootstrap p for paired absolute differences as sacreBLEU's `_paired_bs_test`: with bootstrap
 * differences δ_r, s_r = |δ_r| − mean_r|δ_r|, p = (#{s_r ≥ |observed|} + 1)/(R + 1) (≥: see
 * {@link pValueFromSamples}).
 */
export function bootstrapPValue(diffs: ArrayLike<number>, observed: number): number {
  const R = diffs.length;
  const abs = new Float64Array(R);
  let m = 0;
  for (let r = 0; r < R; r++) {
    const v = Math.abs(diffs[r]!);
    abs[r] = v;
    m += v;
  }
  m /= R;
  for (let r = 0; r < R; r++) abs[r]! -= m;
  return pValueFromSamples(abs, Math.abs(observed));
}

function sumColumns(rows: readonly number[][], weights: ArrayLike<number> | null, d: number): number[] {
  const out = new Array<number>(d).fill(0);
  for (let l = 0; l < rows.length; l++) {
    const w = weights ? weights[l] : 1;
    if (w === 0) continue;
    const row = rows[l];
    for (let c = 0; c < d; c++) out[c]! += w! * row![c]!;
  }
  return out;
}

function statsWidth(a: readonly number[][], b: readonly number[][], name: string): number {
  if (a.length !== b.length) throw new RangeError(`${name}: systems must have statistics for the same instances`);
  const d = a[0]?.length ?? 0;
  for (const rows of [a, b]) for (const r of rows) if (r.length !== d) throw new RangeError(`${name}: ragged statistics rows`);
  return d;
}

/**
 * Paired bootstrap resampling on corpus-level scores (Koehn 2004, EMNLP; sacreBLEU's `paired-bs`):
 * R resamples of the instances with replacement (the same resample for both systems); statistics
 * are summed per resample and scored with `corpusFromStats`; p by sacreBLEU's rule
 * ({@link bootstrapPValue}). Seeded (default 12345), R default 1,000.
 * @example pairedBootstrapCorpus(statsA, statsB, (rows) => rows[0][0] / rows[0][1]).p;
 */
export function pairedBootstrapCorpus(
  statsA: readonly number[][],
  statsB: readonly number[][],
  corpusFromStats: CorpusFromStats,
  options: ResamplingOptions = {},
): ResamplingResult {
  const d = statsWidth(statsA, statsB, 'pairedBootstrapCorpus');
  const n = statsA.length;
  const R = options.resamples ?? 1000;
  const rng = mulberry32(options.seed ?? 12345);
  const observed = corpusFromStats([sumColumns(statsA, null, d)]) - corpusFromStats([sumColumns(statsB, null, d)]);
  const counts = new Int32Array(n);
  const diffs = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    bootstrapCounts(n, rng, counts);
    diffs[r] = corpusFromStats([sumColumns(statsA, counts, d)]) - corpusFromStats([sumColumns(statsB, counts, d)]);
  }
  return { p: bootstrapPValue(diffs, observed), observed };
}

/**
 * Paired approximate randomisation on corpus-level scores (Riezler & Maxwell 2005; sacreBLEU's
 * `paired-ar`): in each trial every instance's statistics are swapped between the systems with
 * probability 1/2; p = (#{|score(A′) − score(B′)| ≥ |observed|} + 1)/(R + 1). Seeded.
 * @example approximateRandomizationCorpus(statsA, statsB, (rows) => rows[0][0] / rows[0][1]).p;
 */
export function approximateRandomizationCorpus(
  statsA: readonly number[][],
  statsB: readonly number[][],
  corpusFromStats: CorpusFromStats,
  options: ResamplingOptions = {},
): ResamplingResult {
  const d = statsWidth(statsA, statsB, 'approximateRandomizationCorpus');
  const n = statsA.length;
  const R = options.resamples ?? 1000;
  const rng = mulberry32(options.seed ?? 12345);
  const totalA = sumColumns(statsA, null, d);
  const totalB = sumColumns(statsB, null, d);
  const observed = corpusFromStats([totalA]) - corpusFromStats([totalB]);
  const swap = new Float64Array(n);
  const samples = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    fillSwapMask(swap, rng);
    // A′ = A − swapped(A) + swapped(B); B′ = B − swapped(B) + swapped(A)
    const sA = sumColumns(statsA, swap, d);
    const sB = sumColumns(statsB, swap, d);
    const a2 = totalA.map((v, c) => v - at(sA, c) + at(sB, c));
    const b2 = totalB.map((v, c) => v - at(sB, c) + at(sA, c));
    samples[r] = Math.abs(corpusFromStats([a2]) - corpusFromStats([b2]));
  }
  return { p: pValueFromSamples(samples, Math.abs(observed)), observed };
}

/** Fills `mask` with independent fair 0/1 values, 32 per PRNG call. */
export function fillSwapMask(mask: Float64Array, rng: { nextUint32(): number }): void {
  let bits = 0;
  for (let l = 0; l < mask.length; l++) {
    if ((l & 31) === 0) bits = rng.nextUint32();
    mask[l] = (bits >>> (l & 31)) & 1;
  }
}

/**
 * Paired bootstrap test on the mean score: the corpus version with per-instance statistic
 * [score] and corpusFromStats = mean. See {@link pairedBootstrapCorpus}.
 * @example pairedBootstrap([0.3, 0.5, 0.9], [0.2, 0.4, 0.1], { resamples: 1000, seed: 12345 }).p;
 */
export function pairedBootstrap(a: ArrayLike<number>, b: ArrayLike<number>, options: ResamplingOptions = {}): ResamplingResult {
  if (a.length !== b.length) throw new RangeError('pairedBootstrap: samples must be paired');
  const n = a.length;
  const R = options.resamples ?? 1000;
  const rng = mulberry32(options.seed ?? 12345);
  let sa = 0;
  let sb = 0;
  for (let l = 0; l < n; l++) {
    sa += a[l]!;
    sb += b[l]!;
  }
  const observed = (sa - sb) / n;
  const counts = new Int32Array(n);
  const diffs = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    bootstrapCounts(n, rng, counts);
    let s = 0;
    for (let l = 0; l < n; l++) s += counts[l]! * (a[l]! - b[l]!);
    diffs[r] = s / n;
  }
  return { p: bootstrapPValue(diffs, observed), observed };
}

/**
 * Paired approximate randomisation test on the mean score: each instance's pair of scores is
 * swapped with probability 1/2; statistic |mean(a′) − mean(b′)|; p = (#{≥ observed} + 1)/(R + 1).
 * Reference: Noreen (1989), Computer-Intensive Methods for Testing Hypotheses; Riezler & Maxwell (2005).
 * @example approximateRandomization([0.3, 0.5, 0.9], [0.2, 0.4, 0.1], { resamples: 1000 }).p;
 */
export function approximateRandomization(a: ArrayLike<number>, b: ArrayLike<number>, options: ResamplingOptions = {}): ResamplingResult {
  if (a.length !== b.length) throw new RangeError('approximateRandomization: samples must be paired');
  const n = a.length;
  const R = options.resamples ?? 1000;
  const rng = mulberry32(options.seed ?? 12345);
  let total = 0;
  for (let l = 0; l < n; l++) total += a[l]! - b[l]!;
  const observed = total / n;
  const mask = new Float64Array(n);
  const samples = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    fillSwapMask(mask, rng);
    let swapped = 0;
    for (let l = 0; l < n; l++) swapped += mask[l]! * (a[l]! - b[l]!);
    samples[r] = Math.abs(total - 2 * swapped) / n;
  }
  return { p: pValueFromSamples(samples, Math.abs(observed)), observed };
}
