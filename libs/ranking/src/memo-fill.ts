/* eslint-disable @typescript-eslint/no-non-null-assertion -- the per-pair loops read typed arrays at indices bounded by the loops (instances < n), as analyse-kernels.ts does */
/**
 * An analysis memo filled ahead of the analysis (issue #28, ADR 0027). The board after the last
 * score is one system's work only when its memo is current; during a burst of scores the boards'
 * full analyses ran behind the scoring workers and their memos lagged by tens of systems (the
 * final analysis then added 43 systems of 100 at 100 × 100,000: a minute instead of 14 s).
 * Filling costs what the memo keeps and nothing else: per system lacking, O(R·n·(3 + w)); per
 * pair lacking, O(n) per memoisable test plus its tied instances once per resample; no wins of
 * every pair, no Bradley–Terry refits, no Elo, TrueSkill or clusters.
 */
import { column, gather, pairWorkspace, randomisationExceedances } from './analyse-kernels';
import { adoptMemoContext, pairMemoKey, type AnalysisMemo, type MemoUse, type PairMemo, type SystemMemo } from './analysis-memo';
import { canonicalise, memoContextOf, resamplesOf, testPlan, type AnalyseOptions } from './analyse';
import { bootstrapAggregates, TIE_MEMO_MAX_CELLS, type PairwiseCounts } from './bootstrap';
import { at } from './checked';
import { corpusScorer, corpusTotalsOf, flatCorpusStats, type FlatCorpusStats } from './corpus-resampling';
import { argsortAscending, mean } from './descriptive';
import { RankingInputError, type ScoreTable } from './score-table';
import { exactMedianSorted, medianBySelection } from './selection';
import { SIGNIFICANCE_TESTS } from './tests/registry';
import type { PairOutcome, TestSetup } from './tests/test';

/** What one fill computed (MemoUse; `pairsReused` counts the pairs left to a later call too), and how many lacking systems it left to a later call (`systemsAtMost`). */
export type MemoFill = MemoUse & { systemsLeft: number };

/** Whether a memo entry holds every column an analysis of R resamples reads of the system. */
function complete(m: SystemMemo | undefined, R: number, corpusWidth: number | null, ar: boolean): boolean {
  if (!m || m.mean.length < R || m.median.length < R) return false;
  if (corpusWidth !== null && (m.corpus.length < R || m.corpusTotals?.length !== corpusWidth)) return false;
  return !ar || m.arSums.length >= R;
}

/**
 * Adds to `options.memo` what {@link analyseSystems} would keep for the systems and pairs of
 * `table` that the memo lacks, computed with the same operations in the same context (the
 * analysis' `options`, `budgetSystems` included: the context and the resamples are the ones of
 * the board to come), so that an analysis with the filled memo equals one from scratch, bit for
 * bit (analysis-memo.spec.ts). Entries of other systems are left as they are (the next analysis
 * keeps only its own). A memo of another context is emptied first, as the analysis does.
 *
 * Corpus statistics (`options.corpus`) may be empty arrays for systems whose columns the memo
 * holds (see {@link corpusStatsNeeded}); the others need theirs. Returns what was computed.
 *
 * `systemsAtMost`: fill the columns of at most this many of the lacking systems (the first in
 * canonical order), and of the lacking pairs those without a system left for later; call again
 * until `systemsLeft` is 0. A caller that stores the memo after each call keeps what was filled
 * when it is stopped (the worker terminates a fill overtaken by a burst's last score).
 */
export function fillAnalysisMemo(table: ScoreTable<ArrayLike<number>>, options: AnalyseOptions & { memo: AnalysisMemo; fingerprints: readonly string[]; systemsAtMost?: number }): MemoFill {
  const seed = options.seed ?? 12345;
  const k = table.systems.length;
  const n = table.instances.length;
  if (k < 1) throw new RankingInputError('need at least one system to fill a memo');
  if (n < 1) throw new RankingInputError('need at least one instance');
  if (!Number.isInteger(seed)) throw new RankingInputError('seed must be an integer');
  if (options.fingerprints.length !== k) throw new RankingInputError(`fingerprints given for ${options.fingerprints.length} systems, expected ${k}`);
  const R = resamplesOf(k, n, options);
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('resamples must be a positive integer');
  const sign = table.higherIsBetter === false ? -1 : 1;
  const { x, sysOrder, instOrder } = canonicalise(table);
  const { wanted, computed } = testPlan(k, n, options);
  const pos = new Int32Array(k);
  sysOrder.forEach((inputIdx, c) => (pos[inputIdx] = c));
  const fp = Array.from(sysOrder, (s) => at(options.fingerprints, s, 'fingerprints'));

  let corpusFlat: FlatCorpusStats | null = null;
  if (options.corpus) {
    const flat = flatCorpusStats(options.corpus.stats, n, (s) => table.systems[s] ?? String(s), true);
    if (flat.data.length !== k) throw new RankingInputError(`corpus statistics given for ${flat.data.length} systems, expected ${k}`);
    corpusFlat = { width: flat.width, data: Array.from(sysOrder, (s) => at(flat.data, s, 'corpus statistics')) };
  }
  const memo = options.memo;
  const context = memoContextOf(n, seed, sign, corpusFlat?.width ?? 0, computed);
  adoptMemoContext(memo, context);
  const ar = wanted.has('ar');
  const lacking = x.map((_, c) => c).filter((c) => !complete(memo.systems.get(at(fp, c)), R, corpusFlat?.width ?? null, ar));
  const atMost = options.systemsAtMost;
  if (atMost !== undefined && !(Number.isInteger(atMost) && atMost >= 1)) throw new RankingInputError(`systemsAtMost must be a positive integer, got ${atMost}`);
  // the systems of this call (canonical order); the others' columns and pairs are a later call's
  const fresh = atMost === undefined ? lacking : lacking.slice(0, atMost);
  const later = new Uint8Array(k);
  for (const c of lacking.slice(fresh.length)) later[c] = 1;
  // the fresh systems' rows argsorted and sorted (their resampled and point medians, Mood on sorted rows)
  const sortIdx = new Map<number, Int32Array>();
  const sortedFresh = new Map<number, Float64Array>();
  for (const c of fresh) {
    const idx = argsortAscending(at(x, c));
    sortIdx.set(c, idx);
    sortedFresh.set(c, gather(at(x, c), idx));
  }
  // a system's point median: a fresh one's off its sorted row, the others' as the memo kept them
  const pointMedianOf = (c: number): number | undefined => {
    const s = sortedFresh.get(c);
    return s ? exactMedianSorted(s) : memo.systems.get(at(fp, c))?.pointMedian;
  };

  // Pairs the memo lacks (input order a < b, keyed as the analysis keys them): their memoisable
  // tests and median difference now, their tied instances for the resampling pass below.
  const running = SIGNIFICANCE_TESTS.filter((t) => !t.corpus && wanted.has(t.key) && 'memoisable' in t && t.memoisable);
  const newPairs: { i: number; j: number; key: string }[] = [];
  for (let ia = 0; ia < k; ia++) {
    for (let ib = ia + 1; ib < k; ib++) {
      const i = at(pos, ia);
      const j = at(pos, ib);
      if (later[i] === 1 || later[j] === 1) continue;
      const key = pairMemoKey(at(fp, i), at(fp, j));
      if (!memo.pairs.has(key)) newPairs.push({ i, j, key });
    }
  }
  const filled = new Map<string, PairMemo>();
  const tiedKeys: string[] = [];
  const tieStarts: number[] = [0];
  const tieInstances: number[] = [];
  if (newPairs.length > 0) {
    const means = x.map((row) => mean(row));
    const sorted = x.map((_, c) => sortedFresh.get(c) ?? new Float64Array(0));
    const medians = x.map((row, c) => pointMedianOf(c) ?? medianBySelection(Float64Array.from(row)));
    const setup: TestSetup = { x, k, n, R, seed, sign, sorted, means, medians, bMean: new Float64Array(0), wins: [], corpus: null, memo: null };
    const runs = running.map((t) => ({ key: t.key, run: t.prepare(setup) }));
    const { pair, select, medianDiff: medianDiffOf } = pairWorkspace(x, n);
    for (const { i, j, key } of newPairs) {
      const xi = at(x, i);
      const xj = at(x, j);
      select(i, j);
      const outcomes: Record<string, PairOutcome> = {};
      for (const { key: test, run } of runs) outcomes[test] = run(pair);
      const medianDiff = medianDiffOf();
      const before = tieInstances.length;
      let wij = 0;
      let wji = 0;
      for (let l = 0; l < n; l++) {
        const a = xi[l]!;
        const b = xj[l]!;
        if (a > b) wij++;
        else if (b > a) wji++;
        else tieInstances.push(l);
      }
      filled.set(key, { medianDiff, outcomes, wins: [wij, wji] });
      if (tieInstances.length > before) {
        tiedKeys.push(key);
        tieStarts.push(tieInstances.length);
      }
    }
  }
  // Tied counts per resample are kept for as many pairs as an analysis keeps (TIE_MEMO_MAX_CELLS).
  const keepTies = tiedKeys.length > 0 && tiedKeys.length * R <= TIE_MEMO_MAX_CELLS;

  // One pass over the seeded resamples: the fresh systems' columns and the new tied pairs' counts.
  if (fresh.length > 0 || keepTies) {
    // with no fresh system, one system's columns are drawn and dropped (the pass needs the instances)
    const rows = fresh.length > 0 ? fresh : [0];
    const xf = rows.map((c) => at(x, c));
    const scoreOf = options.corpus && corpusFlat ? corpusScorer(options.corpus.corpusFromStats, corpusFlat.width) : null;
    const statsOf = (c: number) => {
      const f = at(corpusFlat?.data ?? [], c, 'corpus statistics');
      if (f.length === 0 && n * (corpusFlat?.width ?? 0) > 0) throw new RankingInputError(`corpus statistics for system ${table.systems[at(sysOrder, c)] ?? c} are missing, and the memo does not hold its corpus columns`);
      return f;
    };
    const corpus = corpusFlat && scoreOf && fresh.length > 0 ? { width: corpusFlat.width, data: rows.map(statsOf), order: instOrder, score: scoreOf } : undefined;
    const noPairs: PairwiseCounts = { wins: new Float64Array(0), beats: [], tieStart: new Int32Array(n + 1), tieGroups: new Int32Array(0), winIdx: [] };
    const boot = bootstrapAggregates(
      xf,
      noPairs,
      rows.map((c) => sortIdx.get(c) ?? argsortAscending(at(x, c))),
      new Float64Array(rows.length),
      R,
      seed,
      // no Bradley–Terry refits in a columns-only pass
      { tolerance: 1e-9, maxIterations: 1 },
      corpus,
      { kept: [], columnsOnly: { tieLists: keepTies ? { listStart: Int32Array.from(tieStarts), lists: Int32Array.from(tieInstances) } : null } },
    );
    if (fresh.length > 0) {
      const kf = fresh.length;
      const swapped = ar ? new Float64Array(R * kf) : null;
      if (swapped) randomisationExceedances(xf, n, R, (seed + 1) >>> 0, [], swapped);
      fresh.forEach((c, f) => {
        const median = pointMedianOf(c);
        memo.systems.set(at(fp, c), {
          mean: column(boot.bMean, kf, f, R),
          median: column(boot.bMedian, kf, f, R),
          corpus: corpus ? column(boot.bCorpus, kf, f, R) : new Float64Array(0),
          arSums: swapped ? column(swapped, kf, f, R) : new Float64Array(0),
          corpusTotals: corpus && corpusFlat ? corpusTotalsOf(at(corpus.data, f), n, corpusFlat.width, instOrder) : new Float64Array(0),
          ...(median === undefined ? {} : { pointMedian: median }),
        });
      });
    }
    if (keepTies) tiedKeys.forEach((key, t) => {
      const m = filled.get(key);
      if (m) m.tied = at(boot.listedTies, t);
    });
  }
  for (const [key, m] of filled) memo.pairs.set(key, m);
  return { systemsReused: k - lacking.length, systemsComputed: fresh.length, pairsReused: k * (k - 1) / 2 - newPairs.length, pairsComputed: newPairs.length, systemsLeft: lacking.length - fresh.length };
}
