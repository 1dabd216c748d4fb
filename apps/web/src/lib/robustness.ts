/** Readable names of MENLI's adversarial phenomena. */
export const PHENOMENON_LABELS: Record<string, string> = {
  add: 'addition',
  drop: 'omission',
  name: 'named entity',
  neg: 'negation',
  num: 'number',
  pron: 'pronoun',
  word_JJ: 'adjective swap',
  word_NN: 'noun swap',
  word_VB: 'verb swap',
  typo: 'typos',
  jumble: 'word order',
  subject_verb_dis: 'subject–verb disagreement',
};

export function phenomenonLabel(code: string): string {
  return PHENOMENON_LABELS[code] ?? code;
}

export interface PhenomenonBar {
  code: string;
  label: string;
  accuracy: number;
  low: number | null;
  high: number | null;
  n: number;
  passed: number;
}

/** Bars for the chart, weakest phenomenon first (ties by label) so problems stand out. */
export function phenomenonBars(phenomena: readonly { phenomenon: string; accuracy: number; n: number; passed: number; ci: { low: number | null; high: number | null } }[]): PhenomenonBar[] {
  return phenomena
    .map((p) => ({ code: p.phenomenon, label: phenomenonLabel(p.phenomenon), accuracy: p.accuracy, low: p.ci.low, high: p.ci.high, n: p.n, passed: p.passed }))
    .sort((a, b) => a.accuracy - b.accuracy || a.label.localeCompare(b.label));
}

/** The two measures of MENLI's trade-off curve, as the chart labels them. */
export const TRADEOFF_MEASURES = { accuracy: 'adversarial accuracy', pearson: 'segment Pearson with humans' } as const;

export interface TradeoffRow {
  w: number;
  measure: (typeof TRADEOFF_MEASURES)[keyof typeof TRADEOFF_MEASURES];
  value: number;
  low: number | null;
  high: number | null;
}

/** Metrics an NLI report's curve combines with, in the order stored. */
export function tradeoffPartners(points: readonly { with: string }[]): string[] {
  return [...new Set(points.map((p) => p.with))];
}

/**
 * Points of the trade-off chart for the combination with `partner`: the suite accuracy of
 * C = w·NLI + (1−w)·M (with its interval) and, where the report card has human scores, the
 * segment-level Pearson of the same combination; each sorted by w, missing correlations left out.
 */
export function tradeoffRows(
  partner: string,
  robustness: readonly { with: string; w: number; accuracy: number; ci: { low: number | null; high: number | null } }[],
  correlation?: readonly { with: string; w: number; segmentPearson: number | null }[] | null,
): TradeoffRow[] {
  const accuracy: TradeoffRow[] = robustness
    .filter((p) => p.with === partner)
    .map((p) => ({ w: p.w, measure: TRADEOFF_MEASURES.accuracy, value: p.accuracy, low: p.ci.low, high: p.ci.high }));
  const pearson: TradeoffRow[] = (correlation ?? [])
    .filter((p): p is typeof p & { segmentPearson: number } => p.with === partner && p.segmentPearson !== null)
    .map((p) => ({ w: p.w, measure: TRADEOFF_MEASURES.pearson, value: p.segmentPearson, low: null, high: null }));
  const byW = (a: TradeoffRow, b: TradeoffRow) => a.w - b.w;
  return [...accuracy.sort(byW), ...pearson.sort(byW)];
}
