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
