import { NLI_DIRECTIONS, NLI_FORMULAS, NLI_PLUGIN } from '@podium/metrics';
import type { NliModel, NliPair, NliProbs } from './nli-model';

/** Version of the NLI metric's definition; bump when any score could change. */
export const NLI_METRIC_VERSION = '1.0.0';

/**
 * How the three probabilities become one score (MENLI, Chen & Eger 2022, §3, M:487):
 * `e` = e, `-c` = −c, `e-n` = e − n, `e-c` = e − c, `e-n-2c` = e − n − 2c.
 */
export type NliFormula = (typeof NLI_FORMULAS)[number];

/**
 * Which text is the premise (MENLI M:489–498). `ref->hyp`: reference is the premise;
 * `ref<-hyp`: hypothesis is the premise; `ref<->hyp`: mean of both. `src…` the same with the
 * source instead of the reference (reference-free).
 */
export type NliDirection = (typeof NLI_DIRECTIONS)[number];

/** Aggregation over several references of one instance (Div-Ref, Tang et al., D:78). */
export type NliRefsAggregation = 'max' | 'mean';

/**
 * Premises longer than the model takes: `truncate` (longest-first, as MENLI's code) or
 * `chunk` (consecutive sentence windows that fit, score = max over windows).
 */
export type NliLongPremise = 'truncate' | 'chunk';

/** Task kinds with a paper default. */
export type NliTaskKind = 'mt' | 'summarization' | 'data-to-text' | 'other';

/** Every option that pins an NLI score. */
export interface NliMetricOptions {
  formula: NliFormula;
  direction: NliDirection;
  refsAggregation: NliRefsAggregation;
  long: NliLongPremise;
  /** Pairs per onnxruntime run; does not change scores. */
  batchSize?: number;
  /** Called with pairs done and total while predicting. */
  onProgress?: (done: number, total: number) => void;
}

/** Inputs of {@link scoreNli}: `refStreams[k][i]` is the k-th reference of instance i. */
export interface NliScoreInput {
  hyps: readonly string[];
  refStreams?: readonly (readonly string[])[];
  sources?: readonly string[];
}

/** Output of {@link scoreNli}: the shape every Podium metric returns. */
export interface NliScoreResult {
  metric: 'nli';
  signature: string;
  /** Mean of the instance scores. */
  corpus: number;
  instances: number[];
  /** From the NLI plugin's registry entry (true). */
  higherIsBetter: boolean;
  range: [number, number];
}

/**
 * Applies a formula to probabilities.
 *
 * @example applyFormula('e-n-2c', { e: 0.7, n: 0.2, c: 0.1 }) // 0.7 − 0.2 − 0.2 = 0.3
 */
export function applyFormula(formula: NliFormula, p: NliProbs): number {
  switch (formula) {
    case 'e':
      return p.e;
    case '-c':
      return -p.c;
    case 'e-n':
      return p.e - p.n;
    case 'e-c':
      return p.e - p.c;
    case 'e-n-2c':
      return p.e - p.n - 2 * p.c;
  }
}

/**
 * Range of a formula's values given e + n + c = 1.
 *
 * @example formulaRange('e-n-2c') // [-2, 1]
 */
export function formulaRange(formula: NliFormula): [number, number] {
  switch (formula) {
    case 'e':
      return [0, 1];
    case '-c':
      return [-1, 0];
    case 'e-n':
    case 'e-c':
      return [-1, 1];
    case 'e-n-2c':
      return [-2, 1];
  }
}

/**
 * The MENLI paper's defaults (docs/science.md §3): MT `e` with ↔ (reference-based M:615–619 and
 * reference-free M:620–626); summarisation reference-based `e-c` with ref←hyp (M:1366–1367),
 * reference-free `-c` with src→hyp (M:1367–1368). Data-to-text and other tasks have no
 * paper default; they take MT's symmetric `e` ↔. Several references: max (Div-Ref's
 * better aggregation, D:210–221). Long premises: truncate.
 *
 * @example defaultNliOptions('summarization', 'ref') // { formula: 'e-c', direction: 'ref<-hyp', refsAggregation: 'max', long: 'truncate' }
 */
export function defaultNliOptions(taskKind: NliTaskKind, mode: 'ref' | 'src'): NliMetricOptions {
  const base = { refsAggregation: 'max' as const, long: 'truncate' as const };
  if (taskKind === 'summarization') {
    return mode === 'ref'
      ? { ...base, formula: 'e-c', direction: 'ref<-hyp' }
      : { ...base, formula: '-c', direction: 'src->hyp' };
  }
  return { ...base, formula: 'e', direction: mode === 'ref' ? 'ref<->hyp' : 'src<->hyp' };
}

/** `ref` or `src`: which text the direction compares the hypothesis with. */
export function directionMode(direction: NliDirection): 'ref' | 'src' {
  return direction.startsWith('src') ? 'src' : 'ref';
}

/**
 * The score signature, pinning model, options, execution provider and version, e.g.
 * `nli|model:test-nli-tiny@3e4907effc5a|formula:e|dir:<->|refs:max|long:truncate|ep:cpu|version:1.0.0`.
 * Reference-free directions read `dir:src<->` and `refs:none`.
 */
export function nliSignature(
  model: Pick<NliModel, 'name' | 'sha256' | 'executionProvider'>,
  options: Pick<NliMetricOptions, 'formula' | 'direction' | 'refsAggregation' | 'long'>,
): string {
  const mode = directionMode(options.direction);
  const arrow = options.direction.slice(3, -3);
  return [
    'nli',
    `model:${model.name}@${model.sha256.slice(0, 12)}`,
    `formula:${options.formula}`,
    `dir:${mode === 'src' ? 'src' : ''}${arrow}`,
    `refs:${mode === 'src' ? 'none' : options.refsAggregation}`,
    `long:${options.long}`,
    `ep:${model.executionProvider}`,
    `version:${NLI_METRIC_VERSION}`,
  ].join('|');
}

/** Sentences of a text: split after . ! ? (and closing quotes) followed by white space. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?]["'”’)\]]*)\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Windows of consecutive sentences of `premise`, each as long as fits in `budget` tokens
 * (greedy, no overlap); a single sentence over the budget is its own window and is truncated
 * by the model as usual.
 */
export function sentenceWindows(premise: string, budget: number, countTokens: (s: string) => number): string[] {
  const windows: string[] = [];
  let current: string[] = [];
  let used = 0;
  for (const sentence of splitSentences(premise)) {
    const n = countTokens(sentence);
    if (current.length > 0 && used + n > budget) {
      windows.push(current.join(' '));
      current = [];
      used = 0;
    }
    current.push(sentence);
    used += n;
  }
  if (current.length > 0) windows.push(current.join(' '));
  return windows.length > 0 ? windows : [premise];
}

/** Predicts each distinct pair once; returns a lookup premise → hypothesis → probabilities. */
class PairScorer {
  private readonly keys = new Map<string, number>();
  private readonly pairs: NliPair[] = [];
  private probs: NliProbs[] = [];

  constructor(
    private readonly model: NliModel,
    private readonly options: NliMetricOptions,
  ) {}

  private key(p: NliPair): string {
    return JSON.stringify([p.premise, p.hypothesis]);
  }

  /** Registers the premise windows of one pair; returns their slots. */
  add(premise: string, hypothesis: string): number[] {
    const windows =
      this.options.long === 'chunk' &&
      this.model.countTokens(premise) + this.model.countTokens(hypothesis) + this.model.specialTokensPerPair >
        this.model.maxLength
        ? sentenceWindows(
            premise,
            this.model.maxLength - this.model.specialTokensPerPair - this.model.countTokens(hypothesis),
            (s) => this.model.countTokens(s),
          )
        : [premise];
    return windows.map((w) => {
      const pair = { premise: w, hypothesis };
      const k = this.key(pair);
      let slot = this.keys.get(k);
      if (slot === undefined) {
        slot = this.pairs.length;
        this.keys.set(k, slot);
        this.pairs.push(pair);
      }
      return slot;
    });
  }

  async run(): Promise<void> {
    this.probs = await this.model.predict(this.pairs, { batchSize: this.options.batchSize, onProgress: this.options.onProgress });
  }

  /** Formula score of a registered pair: max over its premise windows. */
  score(slots: number[]): number {
    return Math.max(
      ...slots.map((s) => {
        const probs = this.probs[s];
        if (probs === undefined) throw new Error(`pair ${s} has not been scored (call run() first)`);
        return applyFormula(this.options.formula, probs);
      }),
    );
  }
}

/**
 * NLI metric of MENLI (Chen & Eger 2022): for each instance, NLI probabilities of
 * (premise, hypothesis) pairs chosen by `direction`, turned into a score by `formula`;
 * ↔ averages the two directions; several references are aggregated by max or mean; the
 * corpus score is the mean of the instance scores. Each distinct pair is predicted once.
 *
 * @example
 * const model = await loadNliModel('models/test-nli-tiny');
 * const r = await scoreNli(model, { hyps: ['The cat sat.'], refStreams: [['The cat sat.']] }, defaultNliOptions('mt', 'ref'));
 * // r.instances[0] ≈ 0.926 with the test model (entailment of identical texts, both directions)
 */
export async function scoreNli(model: NliModel, input: NliScoreInput, options: NliMetricOptions): Promise<NliScoreResult> {
  const mode = directionMode(options.direction);
  const n = input.hyps.length;
  let premiseStreams: readonly (readonly string[])[];
  if (mode === 'src') {
    if (!input.sources) throw new Error(`direction ${options.direction} needs sources`);
    premiseStreams = [input.sources];
  } else {
    if (!input.refStreams || input.refStreams.length === 0) throw new Error(`direction ${options.direction} needs references`);
    premiseStreams = input.refStreams;
  }
  premiseStreams.forEach((stream, k) => {
    if (stream.length !== n) {
      throw new Error(`${mode === 'src' ? 'sources' : `reference stream ${k + 1}`} has ${stream.length} lines, hypotheses ${n}`);
    }
  });
  const arrow = options.direction.slice(3, -3);
  const forward = arrow === '->' || arrow === '<->';
  const backward = arrow === '<-' || arrow === '<->';

  const scorer = new PairScorer(model, options);
  // slots[i][k] = [forward slots, backward slots] of instance i against premise text k
  const slots = input.hyps.map((hyp, i) =>
    premiseStreams.map((stream) => {
      const premise = stream[i];
      if (premise === undefined) throw new Error(`premise stream has no line ${i + 1}`);
      return { fwd: forward ? scorer.add(premise, hyp) : [], bwd: backward ? scorer.add(hyp, premise) : [] };
    }),
  );
  await scorer.run();

  const instances = slots.map((perRef) => {
    const scores = perRef.map(({ fwd, bwd }) => {
      if (forward && backward) return (scorer.score(fwd) + scorer.score(bwd)) / 2;
      return forward ? scorer.score(fwd) : scorer.score(bwd);
    });
    return options.refsAggregation === 'mean' ? scores.reduce((a, b) => a + b, 0) / scores.length : Math.max(...scores);
  });
  const corpus = n === 0 ? 0 : instances.reduce((a, b) => a + b, 0) / n;
  return {
    metric: 'nli',
    signature: nliSignature(model, options),
    corpus,
    instances,
    higherIsBetter: NLI_PLUGIN.definition.higherIsBetter,
    range: formulaRange(options.formula),
  };
}
