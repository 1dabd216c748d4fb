import { readFileSync } from 'node:fs';
import { parseDaSegLevel } from './da-scores';
import { type DataOptions, datasetFilePath, fetchDatasetEntry } from './fetch-dataset';
import { type Dataset, getDataset } from './registry';

/** A WMT data set as a Podium test set: instances, human scores and the systems' outputs. */
export interface WmtTestSet {
  dataset: string;
  languagePair: string;
  sourceLang: string;
  targetLang: string;
  /** Lines of the full test set (newstest2017 de-en: 3,004). */
  segmentCount: number;
  /** The judged segments in line order (every segment when the data set has no judgements); `externalId` is the 1-based line. */
  instances: { externalId: string; source: string; references: string[] }[];
  /** One score per (segment, system); a judgement of '+'-joined systems holds for each. */
  humanScores: { externalId: string; system: string; score: number }[];
  /** Systems by name (sorted), outputs aligned with `instances`. */
  systems: { name: string; outputs: string[] }[];
  /** Judgements whose system has no output file upstream (dropped). */
  droppedJudgements: number;
}

/** Lines of a text file: split on '\n' after dropping one trailing newline (bytes kept as they are, BOM included). */
function lines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/**
 * Builds the test set from a data set's cached files: the DA file filtered to the data set's
 * language pair picks the segments (every segment without judgements), system names of the
 * judgements are mapped through the registry's aliases, and judgements of systems without an
 * output file are dropped and counted.
 * @throws Error when a file's line count differs from the source's, or the data set has no test set.
 */
export function buildWmtTestSet(d: Dataset, options: Pick<DataOptions, 'cacheDir'> = {}): WmtTestSet {
  const spec = d.testSet;
  if (!spec) throw new Error(`data set ${d.name} is not a test set`);
  const file = (p: string) => datasetFilePath(d, p, options);
  const source = lines(file(spec.source));
  const reference = lines(file(spec.reference));
  if (reference.length !== source.length) throw new Error(`${spec.reference} has ${reference.length} lines, the source ${source.length}`);
  const outputs = new Map<string, string[]>();
  for (const [name, path] of Object.entries(spec.systems).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const out = lines(file(path));
    if (out.length !== source.length) throw new Error(`${path} has ${out.length} lines, the source ${source.length}`);
    outputs.set(name, out);
  }

  let sids: number[];
  const humanScores: WmtTestSet['humanScores'] = [];
  let droppedJudgements = 0;
  const human = spec.human;
  if (human) {
    const aliases = human.systemAliases ?? {};
    const judgements = parseDaSegLevel(readFileSync(file(human.file), 'utf8')).filter((j) => j.lp === human.languagePair);
    for (const j of judgements) {
      if (j.sid > source.length) throw new Error(`${human.file}: segment ${j.sid} of ${j.lp} is beyond the ${source.length} lines of the source`);
      for (const raw of j.systems) {
        const system = aliases[raw] ?? raw;
        if (!outputs.has(system)) {
          droppedJudgements++;
          continue;
        }
        humanScores.push({ externalId: String(j.sid), system, score: j.human });
      }
    }
    sids = [...new Set(judgements.map((j) => j.sid))].sort((a, b) => a - b);
  } else {
    sids = source.map((_, i) => i + 1);
  }
  return {
    dataset: d.name,
    languagePair: spec.languagePair,
    sourceLang: spec.sourceLang,
    targetLang: spec.targetLang,
    segmentCount: source.length,
    instances: sids.map((sid) => ({ externalId: String(sid), source: lineOf(source, sid), references: [lineOf(reference, sid)] })),
    humanScores,
    systems: [...outputs].map(([name, out]) => ({ name, outputs: sids.map((sid) => lineOf(out, sid)) })),
    droppedJudgements,
  };
}

/** Fetches a WMT data set (see {@link fetchDataset}) and builds its test set. */
export async function loadWmtTestSet(name: string, options: DataOptions = {}): Promise<WmtTestSet> {
  const d = getDataset(name);
  await fetchDatasetEntry(d, options);
  return buildWmtTestSet(d, options);
}

/** Line `sid` (1-based) of a file already checked to have as many lines as the source. */
function lineOf(lines: readonly string[], sid: number): string {
  const line = lines[sid - 1];
  if (line === undefined) throw new RangeError(`segment ${sid} is beyond the ${lines.length} lines`);
  return line;
}
