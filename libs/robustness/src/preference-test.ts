import type { MenliRow } from './menli-suite';
import { createRng, quantileSorted } from './random';
import { at } from '@podium/contracts';

/**
 * One preference case: a metric passes when it scores `good` strictly better than `bad`
 * against the same `anchor` (MENLI Eq. 1, M:231–233).
 */
export interface PreferenceRow {
  id: string;
  phenomenon: string;
  /** The text both candidates are compared with: the reference, or the source in ref-free mode. */
  anchor: string;
  source?: string;
  good: string;
  bad: string;
}

/** Sentence scores of `hyps[i]` against `anchors[i]`, as a metric reports them. */
export interface PairScores {
  values: number[];
  signature: string;
  higherIsBetter: boolean;
}

/** Scores each hypothesis against its anchor; the adapter over BLEU, chrF, TER, NLI, …. */
export type PairScorer = (anchors: string[], hyps: string[]) => Promise<PairScores>;

/** Reference-based (`ref`: anchor = reference) or reference-free (`src`: anchor = source). */
export type SuiteMode = 'ref' | 'src';

/** Bootstrap settings; the defaults are recorded in every report. */
export interface PreferenceOptions {
  /** Seed of the bootstrap resampling (default 12345). */
  seed?: number;
  /** Bootstrap replicates (default 1000). */
  resamples?: number;
  /** Two-sided interval coverage (default 0.95). */
  confidence?: number;
}

/** Pass rate of a set of rows with its percentile-bootstrap interval. */
export interface AccuracyEstimate {
  accuracy: number;
  ci: [number, number];
  n: number;
  passed: number;
}

/** A row the metric got wrong (bad scored at least as well as good), with both scores. */
export interface FailingRow extends PreferenceRow {
  goodScore: number;
  badScore: number;
}

/** Outcome of a preference test for one metric on one suite. */
export interface PreferenceReport {
  signature: string;
  higherIsBetter: boolean;
  /**
   * Macro average over phenomena: the mean of the per-phenomenon accuracies, the number the
   * MENLI paper reports (M:558–560). `n`/`passed` count all rows. Interval: rows resampled within
   * each phenomenon.
   */
  macroAccuracy: AccuracyEstimate;
  /**
   * Pooled accuracy: passed / n over all rows (phenomena weighted by their size). Differs from
   * the macro average when phenomena have different sizes. Same bootstrap draws.
   */
  pooledAccuracy: AccuracyEstimate;
  /** The macro average under its former name (reports stored before `macroAccuracy` existed). */
  overall: AccuracyEstimate;
  phenomena: Record<string, AccuracyEstimate>;
  failing: FailingRow[];
  bootstrap: { seed: number; resamples: number; confidence: number };
}

/** Default bootstrap seed, recorded in reports. */
export const DEFAULT_BOOTSTRAP_SEED = 12345;

/**
 * Turns MENLI suite rows into preference rows. `ref` mode: anchor = ref, good = hyp_para,
 * bad = hyp_adv_based. `src` mode: anchor = source, good = ref, bad = hyp_adv_free — the
 * paper's `m(src, ref) > m(src, hyp_adv)` (M:233) and upstream `adv_test.py`, which scores
 * `ref`, not the Google translation `r`, as the good side (`r` is only the base that
 * hyp_adv_free was perturbed from, M:278–285).
 * @throws Error when a row lacks the source or hyp_adv_free that `src` mode needs.
 */
export function menliPreferenceRows(rows: readonly MenliRow[], mode: SuiteMode): PreferenceRow[] {
  return rows.map((r) => {
    if (mode === 'ref') {
      return { id: r.id, phenomenon: r.error, anchor: r.ref, source: r.source || undefined, good: r.hypPara, bad: r.hypAdvBased };
    }
    if (r.source.trim() === '' || r.hypAdvFree.trim() === '') {
      throw new Error(`row (${r.error}, ${r.id}) has no source or hyp_adv_free, needed for reference-free mode`);
    }
    return { id: r.id, phenomenon: r.error, anchor: r.source, source: r.source, good: r.ref, bad: r.hypAdvFree };
  });
}

/** Whether `good` beats `bad` strictly in the metric's better direction; ties fail. */
export function prefersGood(goodScore: number, badScore: number, higherIsBetter: boolean): boolean {
  return higherIsBetter ? goodScore > badScore : goodScore < badScore;
}

/**
 * Builds the report from already computed scores (e.g. stored sentence scores, or a
 * combined metric). Accuracy = passes / rows per phenomenon; `macroAccuracy` (= `overall`) = mean
 * over phenomena (MENLI's number); `pooledAccuracy` = all passes / all rows.
 * Intervals: percentile bootstrap, rows resampled with replacement within each phenomenon.
 */
export function preferenceReport(
  rows: readonly PreferenceRow[],
  goodScores: readonly number[],
  badScores: readonly number[],
  scoring: { signature: string; higherIsBetter: boolean },
  options: PreferenceOptions = {},
): PreferenceReport {
  if (rows.length === 0) throw new RangeError('a preference test needs at least one row');
  if (goodScores.length !== rows.length || badScores.length !== rows.length) {
    throw new RangeError(`expected ${rows.length} good and bad scores, got ${goodScores.length} and ${badScores.length}`);
  }
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError('resamples must be a positive integer');
  if (!(confidence > 0 && confidence < 1)) throw new RangeError('confidence must lie in (0, 1)');

  const groups = new Map<string, boolean[]>();
  const failing: FailingRow[] = [];
  rows.forEach((row, i) => {
    const g = at(goodScores, i);
    const b = at(badScores, i);
    if (!Number.isFinite(g) || !Number.isFinite(b)) {
      throw new RangeError(`non-finite score for row (${row.phenomenon}, ${row.id})`);
    }
    const pass = prefersGood(g, b, scoring.higherIsBetter);
    if (!pass) failing.push({ ...row, goodScore: g, badScore: b });
    let outcomes = groups.get(row.phenomenon);
    if (!outcomes) groups.set(row.phenomenon, (outcomes = []));
    outcomes.push(pass);
  });

  const names = [...groups.keys()];
  const passCounts = names.map((k) => (groups.get(k) as boolean[]).filter(Boolean).length);
  const sizes = names.map((k) => (groups.get(k) as boolean[]).length);
  const accuracies = passCounts.map((p, i) => p / at(sizes, i));

  // Resampling a phenomenon's rows only changes how many passes it draws, so each replicate
  // draws every row index and counts passes; the macro mean uses the same draws.
  const rng = createRng(seed);
  const perPhenomenon: number[][] = names.map(() => []);
  const macro: number[] = [];
  const pooled: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    let allPasses = 0;
    names.forEach((name, k) => {
      const outcomes = groups.get(name) as boolean[];
      let passes = 0;
      for (let j = 0; j < outcomes.length; j++) if (outcomes[rng.int(outcomes.length)]) passes++;
      const acc = passes / outcomes.length;
      at(perPhenomenon, k).push(acc);
      sum += acc;
      allPasses += passes;
    });
    macro.push(sum / names.length);
    pooled.push(allPasses / rows.length);
  }
  const alpha = (1 - confidence) / 2;
  const interval = (values: number[]): [number, number] => {
    values.sort((a, b) => a - b);
    return [quantileSorted(values, alpha), quantileSorted(values, 1 - alpha)];
  };

  const phenomena: Record<string, AccuracyEstimate> = {};
  names.forEach((name, k) => {
    phenomena[name] = { accuracy: at(accuracies, k), ci: interval(at(perPhenomenon, k)), n: at(sizes, k), passed: at(passCounts, k) };
  });
  const passed = passCounts.reduce((a, b) => a + b, 0);
  const macroAccuracy: AccuracyEstimate = {
    accuracy: accuracies.reduce((a, b) => a + b, 0) / accuracies.length,
    ci: interval(macro),
    n: rows.length,
    passed,
  };
  return {
    signature: scoring.signature,
    higherIsBetter: scoring.higherIsBetter,
    macroAccuracy,
    pooledAccuracy: { accuracy: passed / rows.length, ci: interval(pooled), n: rows.length, passed },
    overall: macroAccuracy,
    phenomena,
    failing,
    bootstrap: { seed, resamples, confidence },
  };
}

/**
 * Runs the preference test: scores good and bad against the anchor with `scorer`, then
 * {@link preferenceReport}. A lower-is-better metric (TER) passes when good scores lower.
 * @example const report = await runPreferenceTest(menliPreferenceRows(rows, "ref"), chrfScorer);
 */
export async function runPreferenceTest(
  rows: readonly PreferenceRow[],
  scorer: PairScorer,
  options: PreferenceOptions = {},
): Promise<PreferenceReport> {
  const anchors = rows.map((r) => r.anchor);
  const good = await scorer(anchors, rows.map((r) => r.good));
  const bad = await scorer(anchors, rows.map((r) => r.bad));
  if (good.signature !== bad.signature || good.higherIsBetter !== bad.higherIsBetter) {
    throw new Error(`scorer changed between calls: ${good.signature} vs ${bad.signature}`);
  }
  return preferenceReport(rows, good.values, bad.values, good, options);
}
