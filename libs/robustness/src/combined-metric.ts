import { pearson } from './correlation';
import { preferenceReport } from './preference-test';
import type { PreferenceOptions, PreferenceRow } from './preference-test';

/**
 * Min–max scales values to [0, 1] over the given set; a constant set maps to 0.5.
 * `flip` maps the best of a lower-is-better metric to 1.
 */
export function minMaxScale(values: readonly number[], flip = false): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return values.map((v) => {
    const s = hi === lo ? 0.5 : (v - lo) / (hi - lo);
    return flip ? 1 - s : s;
  });
}

/**
 * MENLI's combined metric C = w·N + (1 − w)·M (M:1265–1271), N the NLI score and M the
 * classical metric, both min–max scaled to [0, 1] over the same set of scores first
 * (a lower-is-better M is flipped, so C is always higher-is-better).
 * @example combineScores([0.9, 0.1], [20, 40], 0.2, true) // [0.18, 0.82]
 */
export function combineScores(
  nli: readonly number[],
  metric: readonly number[],
  w: number,
  metricHigherIsBetter: boolean,
): number[] {
  if (nli.length !== metric.length) throw new RangeError('NLI and metric scores differ in length');
  if (!(w >= 0 && w <= 1)) throw new RangeError('w must lie in [0, 1]');
  const n = minMaxScale(nli);
  const m = minMaxScale(metric, !metricHigherIsBetter);
  return n.map((v, i) => w * v + (1 - w) * m[i]);
}

/** Good- and bad-side scores of one metric on a preference suite. */
export interface SuiteScores {
  good: readonly number[];
  bad: readonly number[];
  higherIsBetter: boolean;
}

/** Scores of one metric on human-judged data, for the correlation side of the curve. */
export interface JudgedScores {
  segment: readonly number[];
  system: readonly number[];
  higherIsBetter: boolean;
}

/** One point of the robustness–correlation trade-off curve. */
export interface TradeoffPoint {
  w: number;
  accuracy: number;
  /** Bootstrap interval of `accuracy`, when {@link tradeoffCurve} was given `bootstrap`. */
  ci?: [number, number];
  segmentPearson?: number;
  systemPearson?: number;
}

/**
 * The paper's trade-off curve (MENLI Figs. 1–2): for each NLI weight w, the adversarial
 * accuracy of the combined metric and, where human scores exist, its segment- and
 * system-level Pearson. Normalisation sets follow upstream `combine_1.py`: suite scores
 * per phenomenon over the pooled good and bad scores; segment scores over all judged
 * segments; system scores over all systems. With `bootstrap`, each point also carries the
 * accuracy's percentile-bootstrap interval (as {@link preferenceReport}, same seed per point).
 */
export function tradeoffCurve(args: {
  rows: readonly PreferenceRow[];
  nli: SuiteScores;
  metric: SuiteScores;
  weights?: readonly number[];
  bootstrap?: PreferenceOptions;
  judged?: { nli: JudgedScores; metric: JudgedScores; humanSegment: readonly number[]; humanSystem: readonly number[] };
}): TradeoffPoint[] {
  const weights = args.weights ?? [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
  const byPhenomenon = new Map<string, number[]>();
  args.rows.forEach((r, i) => {
    let list = byPhenomenon.get(r.phenomenon);
    if (!list) byPhenomenon.set(r.phenomenon, (list = []));
    list.push(i);
  });
  const orient = (s: SuiteScores, v: number): number => (s.higherIsBetter ? v : -v);
  return weights.map((w) => {
    const good = new Array<number>(args.rows.length);
    const bad = new Array<number>(args.rows.length);
    for (const idx of byPhenomenon.values()) {
      const nli = [...idx.map((i) => orient(args.nli, args.nli.good[i])), ...idx.map((i) => orient(args.nli, args.nli.bad[i]))];
      const met = [...idx.map((i) => args.metric.good[i]), ...idx.map((i) => args.metric.bad[i])];
      const c = combineScores(nli, met, w, args.metric.higherIsBetter);
      idx.forEach((i, k) => {
        good[i] = c[k];
        bad[i] = c[idx.length + k];
      });
    }
    const report = preferenceReport(args.rows, good, bad, { signature: `combined|w:${w}`, higherIsBetter: true }, args.bootstrap ?? { resamples: 1 });
    const point: TradeoffPoint = { w, accuracy: report.overall.accuracy };
    if (args.bootstrap) point.ci = report.overall.ci;
    if (args.judged) {
      const j = args.judged;
      point.segmentPearson = pearson(
        combineScores(j.nli.segment.map((v) => (j.nli.higherIsBetter ? v : -v)), j.metric.segment, w, j.metric.higherIsBetter),
        j.humanSegment,
      );
      point.systemPearson = pearson(
        combineScores(j.nli.system.map((v) => (j.nli.higherIsBetter ? v : -v)), j.metric.system, w, j.metric.higherIsBetter),
        j.humanSystem,
      );
    }
    return point;
  });
}
