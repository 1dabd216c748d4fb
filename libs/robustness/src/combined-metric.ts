import { COMBINED_PLUGIN, combineScores, combinedSignature } from '@podium/metrics';
import { pearson } from './correlation';
import { preferenceReport } from './preference-test';
import type { PreferenceOptions, PreferenceRow } from './preference-test';
import { at } from '@podium/contracts';

/** NLI weights of the trade-off curve: w = 0, .1, …, 1 (MENLI Figs. 1–2). */
export const TRADEOFF_WEIGHTS: readonly number[] = Array.from({ length: 11 }, (_, k) => k / 10);

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
 * accuracy of the combined metric (`combineScores` of the combined plugin in `@podium/metrics`, the one implementation) and, where human scores exist, its segment- and
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
  const weights = args.weights ?? TRADEOFF_WEIGHTS;
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
      const nli = [...idx.map((i) => orient(args.nli, at(args.nli.good, i))), ...idx.map((i) => orient(args.nli, at(args.nli.bad, i)))];
      const met = [...idx.map((i) => at(args.metric.good, i)), ...idx.map((i) => at(args.metric.bad, i))];
      const c = combineScores(nli, met, w, { otherHigherIsBetter: args.metric.higherIsBetter }).values;
      idx.forEach((i, k) => {
        good[i] = at(c, k);
        bad[i] = at(c, idx.length + k);
      });
    }
    const report = preferenceReport(args.rows, good, bad, { signature: combinedSignature({ nliSignature: 'nli', otherSignature: 'metric', w, otherHigherIsBetter: args.metric.higherIsBetter, scale: 'suite-phenomenon' }), higherIsBetter: COMBINED_PLUGIN.definition.higherIsBetter }, args.bootstrap ?? { resamples: 1 });
    const point: TradeoffPoint = { w, accuracy: report.overall.accuracy };
    if (args.bootstrap) point.ci = report.overall.ci;
    if (args.judged) {
      const j = args.judged;
      point.segmentPearson = pearson(
        combineScores(j.nli.segment.map((v) => (j.nli.higherIsBetter ? v : -v)), j.metric.segment, w, { otherHigherIsBetter: j.metric.higherIsBetter }).values,
        j.humanSegment,
      );
      point.systemPearson = pearson(
        combineScores(j.nli.system.map((v) => (j.nli.higherIsBetter ? v : -v)), j.metric.system, w, { otherHigherIsBetter: j.metric.higherIsBetter }).values,
        j.humanSystem,
      );
    }
    return point;
  });
}
