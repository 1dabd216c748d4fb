// `podium models check NAME`: runs an NLI model over a labelled NLI set (SICK by default) and
// reports accuracy and the 3×3 confusion matrix, flagging a label order (config.json id2label)
// that the matrix contradicts — the silent failure of NLI metric deployments.
import { join } from 'node:path';
import { dataSourceFromEnv, licenceNote, loadNliSet, type NliExample } from '@podium/datasets';
import { NLI_CLASSES, checkLabelOrder, confusionMatrix, loadNliModel, predictedClass, supportedId2label, type NliClass } from '@podium/nli';
import { CliError } from '../cli-error';

/** Options of {@link checkModel}. */
export interface ModelCheckOptions {
  modelsDir: string;
  manifestPath: string;
  /** Registry data set with an `nliSet` (default `sick`). */
  data: string;
  /** The set's split to use (SICK: TRAIN, TRIAL, TEST), or `all`. */
  split: string;
  /** At most this many pairs (the first ones of the split), or all. */
  limit?: number;
  batchSize: number;
  log: (line: string) => void;
}

/** What `podium models check` prints. */
export interface ModelCheckReport {
  model: string;
  modelSha256: string;
  /** The model's config.json id2label, as loaded. */
  id2label: Record<string, NliClass>;
  data: { name: string; split: string; pairs: number; licence: string };
  accuracy: number;
  confusion: { rows: 'gold'; columns: 'predicted'; classes: readonly NliClass[]; counts: number[][] };
  /** The matrix as text (also written to stderr). */
  table: string[];
  labelOrder: {
    consistent: boolean;
    /** The id2label the data supports (equal to id2label when consistent). */
    supportedId2label: Record<string, NliClass>;
    /** Accuracy had the outputs been read with supportedId2label. */
    supportedAccuracy: number;
    warning: string | null;
  };
}

function table(counts: number[][]): string[] {
  const w = 14;
  const head = 'gold \\ predicted'.padEnd(18) + NLI_CLASSES.map((c) => c.padStart(w)).join('');
  return [head, ...NLI_CLASSES.map((g, i) => g.padEnd(18) + (counts[i] ?? []).map((n) => String(n).padStart(w)).join(''))];
}

/** Runs the check (see the file's header). */
export async function checkModel(name: string, o: ModelCheckOptions): Promise<ModelCheckReport> {
  let examples: NliExample[];
  let licence: string;
  try {
    const set = await loadNliSet(o.data, { source: dataSourceFromEnv(), log: (m) => o.log(`podium models: ${m}`) });
    examples = o.split === 'all' ? set.examples : set.examples.filter((e) => e.split.toLowerCase() === o.split.toLowerCase());
    if (examples.length === 0) {
      const splits = [...new Set(set.examples.map((e) => e.split))];
      throw new CliError(`data set ${o.data} has no pairs in split '${o.split}' (splits: ${splits.join(', ')}, or all)`);
    }
    licence = licenceNote(set.dataset);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError((err as Error).message);
  }
  if (o.limit !== undefined) examples = examples.slice(0, o.limit);
  let model;
  try {
    model = await loadNliModel(join(o.modelsDir, name), { manifestPath: o.manifestPath, log: (m) => o.log(`podium models: ${m}`) });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  try {
    const probs = await model.predict(
      examples.map((e) => ({ premise: e.premise, hypothesis: e.hypothesis })),
      { batchSize: o.batchSize },
    );
    const counts = confusionMatrix(
      examples.map((e) => e.label),
      probs.map(predictedClass),
    );
    const check = checkLabelOrder(counts);
    const id2label = supportedId2label(model.labels, { entailment: 'entailment', neutral: 'neutral', contradiction: 'contradiction' });
    const supported = supportedId2label(model.labels, check.supported);
    const lines = table(counts);
    const warning = check.consistent
      ? null
      : `the confusion matrix contradicts config.json's label order ${JSON.stringify(id2label)}: the data supports ${JSON.stringify(supported)} (accuracy ${check.accuracy.toFixed(4)} as configured, ${check.supportedAccuracy.toFixed(4)} relabelled); an NLI metric using this model reads the wrong probabilities`;
    for (const l of lines) o.log(l);
    if (warning) o.log(`podium models: WARNING ${warning}`);
    return {
      model: name,
      modelSha256: model.sha256,
      id2label,
      data: { name: o.data, split: o.split, pairs: examples.length, licence },
      accuracy: check.accuracy,
      confusion: { rows: 'gold', columns: 'predicted', classes: NLI_CLASSES, counts },
      table: lines,
      labelOrder: { consistent: check.consistent, supportedId2label: supported, supportedAccuracy: check.supportedAccuracy, warning },
    };
  } finally {
    await model.close();
  }
}
