// Labelled NLI sets of the registry (`nliSet`), read into premise/hypothesis/label triples for
// `podium models check`. Fetched like every data set (fetchDataset: upstream or PODIUM_DATA_MIRROR).
import { readFileSync } from 'node:fs';
import { fetchDatasetEntry, datasetFilePath, type DataOptions } from './fetch-dataset';
import { getDataset, type Dataset } from './registry';

/** The three NLI classes, as NLI models name them. */
export type NliGoldLabel = 'entailment' | 'neutral' | 'contradiction';

/** One labelled pair. */
export interface NliExample {
  id: string;
  premise: string;
  hypothesis: string;
  label: NliGoldLabel;
  /** The set's own split (SICK: TRAIN, TRIAL, TEST). */
  split: string;
}

const SICK_COLUMNS = ['pair_ID', 'sentence_A', 'sentence_B', 'entailment_label'] as const;

/**
 * SICK.txt: tab-separated with a header; premise = sentence_A, hypothesis = sentence_B, label =
 * entailment_label (ENTAILMENT / NEUTRAL / CONTRADICTION), split = SemEval_set.
 * @throws Error naming the line of a malformed row or an unknown label.
 */
export function parseSick(text: string): NliExample[] {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const header = (lines[0] ?? '').split('\t');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`SICK: the header lacks the column ${name} (have: ${header.join(', ')})`);
    return i;
  };
  const [id, a, b, label] = SICK_COLUMNS.map(col) as [number, number, number, number];
  const split = header.indexOf('SemEval_set');
  return lines.slice(1).map((line, k) => {
    const f = line.split('\t');
    const gold = (f[label] ?? '').trim().toLowerCase();
    if (gold !== 'entailment' && gold !== 'neutral' && gold !== 'contradiction') throw new Error(`SICK line ${k + 2}: unknown label '${f[label] ?? ''}'`);
    const premise = f[a];
    const hypothesis = f[b];
    if (!premise || !hypothesis) throw new Error(`SICK line ${k + 2}: missing sentence_A or sentence_B`);
    return { id: f[id] ?? String(k + 1), premise, hypothesis, label: gold, split: split >= 0 ? (f[split] ?? '') : '' };
  });
}

/** A labelled NLI set fetched and read, with the entry it came from (for its licence). */
export interface LoadedNliSet {
  dataset: Dataset;
  examples: NliExample[];
}

/**
 * Fetches a registry data set with an `nliSet` (e.g. `sick`) and reads its pairs.
 * @throws UnknownDatasetError, DataFetchError, or Error when the set has no `nliSet`.
 */
export async function loadNliSet(name: string, options: DataOptions = {}): Promise<LoadedNliSet> {
  const dataset = getDataset(name);
  if (!dataset.nliSet) throw new Error(`data set ${name} is not a labelled NLI set`);
  await fetchDatasetEntry(dataset, options);
  const text = readFileSync(datasetFilePath(dataset, dataset.nliSet.file, options), 'utf8');
  return { dataset, examples: parseSick(text) };
}
