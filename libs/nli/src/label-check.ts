/**
 * Checking an NLI model's label order against labelled data (`podium models check`): the silent
 * failure of NLI metric deployments is a config.json whose id2label does not match what the
 * weights learnt, so entailment probabilities are read off the wrong output. The confusion matrix
 * on a labelled set shows it: when the permutation of the model's labels that maximises the
 * diagonal is not the identity, the data supports another order.
 */
import type { NliLabelIndex } from './labels';

/** The classes in the confusion matrix's row and column order. */
export const NLI_CLASSES = ['entailment', 'neutral', 'contradiction'] as const;
export type NliClass = (typeof NLI_CLASSES)[number];

/** counts[gold][predicted], rows and columns in {@link NLI_CLASSES} order. */
export type ConfusionMatrix = number[][];

/** The confusion matrix of gold and predicted classes (same length). */
export function confusionMatrix(gold: readonly NliClass[], predicted: readonly NliClass[]): ConfusionMatrix {
  if (gold.length !== predicted.length) throw new RangeError(`confusionMatrix: ${gold.length} gold labels, ${predicted.length} predictions`);
  const m = NLI_CLASSES.map(() => NLI_CLASSES.map(() => 0));
  gold.forEach((g, i) => {
    const p = predicted[i];
    const row = m[NLI_CLASSES.indexOf(g)];
    if (p === undefined || !row) return;
    row[NLI_CLASSES.indexOf(p)] = (row[NLI_CLASSES.indexOf(p)] ?? 0) + 1;
  });
  return m;
}

/** All 3! permutations of [0, 1, 2], the identity first. */
const PERMUTATIONS: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/** What the confusion matrix says about the model's label order. */
export interface LabelOrderCheck {
  /** Share of pairs whose predicted class is the gold one. */
  accuracy: number;
  /**
   * The relabelling that maximises the diagonal: `supported[c]` is the class the data says the
   * model's output read as class c (NLI_CLASSES order) really predicts. Identity when consistent.
   */
  supported: Record<NliClass, NliClass>;
  /** Accuracy under {@link supported}. */
  supportedAccuracy: number;
  /** True when the identity maximises the diagonal (ties go to the identity). */
  consistent: boolean;
}

/**
 * The permutation of predicted classes that maximises the diagonal of the confusion matrix
 * (ties keep the identity, so a model at chance is not flagged for noise).
 * @example checkLabelOrder([[0, 0, 9], [0, 9, 0], [9, 0, 0]]).supported // { entailment: 'contradiction', neutral: 'neutral', contradiction: 'entailment' }
 */
export function checkLabelOrder(m: ConfusionMatrix): LabelOrderCheck {
  const cell = (g: number, p: number): number => m[g]?.[p] ?? 0;
  const total = m.reduce((a, row) => a + row.reduce((x, y) => x + y, 0), 0);
  // perm[p] = the gold class that predicted column p is read as
  const diagonal = (perm: readonly number[]) => perm.reduce((a, g, p) => a + cell(g, p), 0);
  let best = PERMUTATIONS[0] ?? [0, 1, 2];
  for (const perm of PERMUTATIONS) if (diagonal(perm) > diagonal(best)) best = perm;
  const supported = Object.fromEntries(NLI_CLASSES.map((c, p) => [c, NLI_CLASSES[best[p] ?? p] ?? c])) as Record<NliClass, NliClass>;
  return {
    accuracy: total > 0 ? diagonal([0, 1, 2]) / total : NaN,
    supported,
    supportedAccuracy: total > 0 ? diagonal(best) / total : NaN,
    consistent: best.every((g, p) => g === p),
  };
}

/**
 * The id2label the data supports: the model's output index that config.json calls class c is
 * renamed to `supported[c]`.
 * @example supportedId2label({ entailment: 1, neutral: 2, contradiction: 0 }, { entailment: 'contradiction', neutral: 'neutral', contradiction: 'entailment' }) // { 0: 'entailment', 1: 'contradiction', 2: 'neutral' }
 */
export function supportedId2label(labels: NliLabelIndex, supported: Record<NliClass, NliClass>): Record<string, NliClass> {
  return Object.fromEntries(NLI_CLASSES.map((c) => [String(labels[c]), supported[c]] as const).sort((a, b) => Number(a[0]) - Number(b[0])));
}

/** The class with the largest probability (ties: entailment, neutral, contradiction order). */
export function predictedClass(p: { e: number; n: number; c: number }): NliClass {
  if (p.e >= p.n && p.e >= p.c) return 'entailment';
  return p.n >= p.c ? 'neutral' : 'contradiction';
}
