/**
 * Scores of several systems on the same instances: the input to every ranking function.
 * `scores[s][i]` is the score of `systems[s]` on `instances[i]`.
 */
/**
 * Scores of systems (rows) on instances (columns). The functions that read a table take its rows
 * as any `ArrayLike<number>` (a `Float64Array` straight from storage is not copied into an array);
 * `Row` is what a table built here holds.
 */
export interface ScoreTable<Row extends ArrayLike<number> = number[]> {
  systems: string[];
  instances: string[];
  scores: Row[];
  /** Default true. When false (e.g. TER), lower scores are better; functions flip internally. */
  higherIsBetter?: boolean;
}

/**
 * Input that cannot be ranked: missing or duplicate cells, non-finite scores, too few systems.
 * The message names the offending cells; the CLI prints it as one line.
 * @example buildScoreTable([{ system: 'A', instance: '1', score: NaN }]); // throws RankingInputError
 */
export class RankingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RankingInputError';
  }
}

/** One long-format score row, as in the CLI's `system,instance,score` CSV. */
export interface ScoreRow {
  system: string;
  instance: string;
  score: number;
}

const MAX_NAMED = 5;

/**
 * Pivots long-format rows into a {@link ScoreTable}. Systems and instances keep first-seen order.
 * Throws {@link RankingInputError} naming up to five missing (system, instance) cells, duplicate
 * cells, or non-finite scores.
 * @example buildScoreTable([{ system: 'A', instance: '1', score: 0.5 }, { system: 'B', instance: '1', score: 0.7 }]);
 */
export function buildScoreTable(rows: readonly ScoreRow[]): ScoreTable {
  const systemIndex = new Map<string, number>();
  const instanceIndex = new Map<string, number>();
  for (const r of rows) {
    if (!systemIndex.has(r.system)) systemIndex.set(r.system, systemIndex.size);
    if (!instanceIndex.has(r.instance)) instanceIndex.set(r.instance, instanceIndex.size);
  }
  const n = instanceIndex.size;
  const scores: number[][] = [];
  const seen: Uint8Array[] = [];
  const cells = new Map<string, { scores: number[]; seen: Uint8Array }>(); // by system
  for (const system of systemIndex.keys()) {
    const cell = { scores: new Array<number>(n).fill(NaN), seen: new Uint8Array(n) };
    scores.push(cell.scores);
    seen.push(cell.seen);
    cells.set(system, cell);
  }
  const duplicates: string[] = [];
  let duplicateCount = 0;
  for (const r of rows) {
    if (typeof r.score !== 'number' || !Number.isFinite(r.score)) {
      throw new RankingInputError(`score for (${r.system}, ${r.instance}) is not a finite number: ${String(r.score)}`);
    }
    const cell = cells.get(r.system);
    const i = instanceIndex.get(r.instance);
    if (cell === undefined || i === undefined) throw new Error(`buildScoreTable: (${r.system}, ${r.instance}) was not indexed`); // both maps were filled from rows above
    if (cell.seen[i]) {
      duplicateCount++;
      if (duplicates.length < MAX_NAMED) duplicates.push(`(${r.system}, ${r.instance})`);
    }
    cell.seen[i] = 1;
    cell.scores[i] = r.score;
  }
  if (duplicateCount > 0) {
    throw new RankingInputError(`${duplicateCount} duplicate (system, instance) cell(s): ${duplicates.join(', ')}${duplicateCount > duplicates.length ? ', …' : ''}`);
  }
  const systems = [...systemIndex.keys()];
  const instances = [...instanceIndex.keys()];
  const missing: string[] = [];
  let missingCount = 0;
  for (const [s, seenRow] of seen.entries()) {
    for (const [i, present] of seenRow.entries()) {
      if (!present) {
        missingCount++;
        if (missing.length < MAX_NAMED) missing.push(`(${systems[s]}, ${instances[i]})`);
      }
    }
  }
  if (missingCount > 0) {
    throw new RankingInputError(`${missingCount} missing (system, instance) cell(s): ${missing.join(', ')}${missingCount > missing.length ? ', …' : ''}`);
  }
  return { systems, instances, scores };
}

/** Checks shape and values; returns scores oriented so that higher is better. */
export function orientedScores(table: ScoreTable<ArrayLike<number>>): Float64Array[] {
  const { systems, instances, scores } = table;
  if (scores.length !== systems.length) {
    throw new RankingInputError(`score table has ${scores.length} score rows for ${systems.length} systems`);
  }
  if (new Set(systems).size !== systems.length) throw new RankingInputError('system names must be unique');
  const flip = table.higherIsBetter === false ? -1 : 1;
  return scores.map((row, s) => {
    if (row.length !== instances.length) {
      throw new RankingInputError(`system ${systems[s]} has ${row.length} scores for ${instances.length} instances`);
    }
    const out = new Float64Array(row.length);
    for (let i = 0; i < row.length; i++) {
      const x = row[i] as number;
      if (!Number.isFinite(x)) throw new RankingInputError(`score for (${systems[s]}, ${instances[i]}) is not a finite number`);
      out[i] = flip * x + 0; // + 0 turns −0 into 0
    }
    return out;
  });
}
