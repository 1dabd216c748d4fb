// Computes leaderboards of a phase from its stored scores. Runs in a worker's thread
// (compute.thread.ts), never in the API: at 100 systems × 100k instances one board is minutes.
import type { PhaseScoreMatrix, ScoreRepository, SubmissionRepository } from '@podium/db';
import { at } from '@podium/contracts';
import { corpusStatistics, corpusStatisticsKeys, summedStats, type CorpusStatistics, type CorpusStatisticsKeys } from './corpus-statistics';
import { leaderboardEntries } from './leaderboard-entries';
import { PairedTest, type ComputedLeaderboard, type LeaderboardSystem, type SystemPair } from './leaderboard.types';
import { COMBINED_CORPUS_NOTE, PhaseMetrics, taskMetrics, type MetricSelection, type PhaseForMetrics } from './phase-metrics';
import { CLUSTER_DEFINITION, corpusStatsNeededFor, fillMemoFor, PAIRED_TESTS, rankSystems, smallestReachableP, TEST_LABELS, type Analysis, type FlatCorpusStats, type RankingInput, type RankingOptions, type TestName } from './ranking.adapter';
import { parseStoredSplit, pickRows, scoringPart, scoringPartNote } from './instance-split';
import { ALPHA, effectiveSettings, type LeaderboardView, type PhaseSignificanceSettings } from './view';
import { parseMemo, serialiseMemo, systemFingerprints, type MemoStore } from './memo';
import type { AnalysisMemo, MemoUse } from '@podium/ranking';

const finite = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);
const interval = (ci: readonly [number, number]) => ({ low: finite(ci[0]), high: finite(ci[1]) });

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [v, c] of counts) if (c > bestCount) [best, bestCount] = [v, c];
  return best;
}

/**
 * Classes of systems tied exactly (no instance won or lost between them, e.g. identical outputs):
 * each system's label is its class's first label, so a tie broken arbitrarily by one aggregation
 * is no disagreement.
 */
export function exactTieLabels(
  systems: readonly { submissionId?: string; label: string }[],
  pairs: readonly { aSubmissionId: string; bSubmissionId: string; wins: number; losses: number }[],
): Map<string, string> {
  const labelOf = new Map(systems.flatMap((s) => (s.submissionId ? [[s.submissionId, s.label] as const] : [])));
  const parent = new Map([...labelOf.keys()].map((id) => [id, id]));
  const find = (x: string): string => {
    const p = parent.get(x);
    return p === undefined || p === x ? x : find(p);
  };
  for (const p of pairs) {
    if (p.wins !== 0 || p.losses !== 0 || !labelOf.has(p.aSubmissionId) || !labelOf.has(p.bSubmissionId)) continue;
    const [a, b] = [find(p.aSubmissionId), find(p.bSubmissionId)];
    if (a === b) continue;
    // The class is named by its alphabetically first label.
    const [keep, drop] = (labelOf.get(a) ?? '') <= (labelOf.get(b) ?? '') ? [a, b] : [b, a];
    parent.set(drop, keep);
  }
  return new Map(systems.map((s) => [s.label, s.submissionId ? (labelOf.get(find(s.submissionId)) ?? s.label) : s.label]));
}

/**
 * Names the top system under mean, median and BT when they are not the same. Systems tied
 * exactly (`pairs` with no win and no loss: identical outputs) count as one, so an arbitrary
 * order between them is no disagreement.
 */
export function topDisagreement(
  systems: (Pick<LeaderboardSystem, 'system' | 'team'> & { submissionId?: string; rank: { mean: number; median: number; bt: number } })[],
  pairs: readonly { aSubmissionId: string; bSubmissionId: string; wins: number; losses: number }[] = [],
): string | null {
  if (systems.length < 2) return null;
  const label = (s: Pick<LeaderboardSystem, 'system' | 'team'>) => `${s.system} (${s.team})`;
  const classOf = exactTieLabels(
    systems.map((s) => ({ submissionId: s.submissionId, label: label(s) })),
    pairs,
  );
  const top = (agg: 'mean' | 'median' | 'bt') => [...new Set(systems.filter((s) => s.rank[agg] === 1).map((s) => classOf.get(label(s)) ?? label(s)))].sort();
  const [m, md, bt] = [top('mean'), top('median'), top('bt')];
  const same = (a: string[], b: string[]) => a.join('\u0000') === b.join('\u0000');
  if (same(m, md) && same(m, bt)) return null;
  return `The aggregations disagree about the top system: mean ranks ${m.join(' and ')} first, median ${md.join(' and ')}, Bradley–Terry ${bt.join(' and ')}. Compare them head to head in the pairs.`;
}

/**
 * Systems × instances from which a board keeps an analysis memo (ADR 0027): at 8 × 300 reading and
 * writing the memo cost more CPU than it saved (`bench:incremental-board`), at 100 × 5,000 it
 * saved two thirds of the default board's time.
 */
export const MEMO_MIN_CELLS = 100_000;

/**
 * What a computation is doing, as its caller is told (LeaderboardInputs.onAnalysis), for the
 * worker's rule on stale work (staleWork): `fill`, filling a memo ahead (fillViewMemo: never
 * worth dropping, its work is the next analysis'); `memo`, an analysis whose memo the next
 * computation reuses (finished when stale during a burst); `plain`, an analysis that keeps
 * nothing a fill did not (dropped when stale).
 */
export type AnalysisStage = 'fill' | 'memo' | 'plain';

/** What a computation reads; one instance per job, so views of the same metric share matrix and statistics. */
export class LeaderboardInputs {
  private readonly matrices = new Map<string, Promise<PhaseScoreMatrix>>();
  private readonly stats = new Map<string, Promise<CorpusStatistics | null>>();
  private readonly keys = new Map<string, Promise<CorpusStatisticsKeys | null>>();
  private scored: ReturnType<SubmissionRepository['ofPhase']> | undefined;

  constructor(
    readonly metrics: PhaseMetrics,
    private readonly submissions: Pick<SubmissionRepository, 'ofPhase'>,
    private readonly scores: Pick<ScoreRepository, 'alignedTexts' | 'testSetShape' | 'sufficientStatistics' | 'statisticsDigests'>,
    readonly stamp: string,
    /** Where each view's analysis memo is kept between computations (ADR 0027); none: every board from scratch. */
    readonly memos?: MemoStore,
    /** Boards of fewer systems × instances are computed without a memo (reading and writing it costs more than it saves there). */
    readonly memoMinCells = MEMO_MIN_CELLS,
  ) {}

  /** What the memos saved, per computed view (logs and the bench). */
  readonly memoUses: { memoKey: string; use: MemoUse }[] = [];

  /** Told what each analysis (or fill) is before it runs: whether finishing it when stale saves later work. */
  onAnalysis: ((stage: AnalysisStage) => void) | null = null;

  /** Whether this job filled the memos of its analyses first (fillViewMemo): a stale analysis then keeps nothing the fill did not. */
  memosFilled = false;

  private readonly loadedMemos = new Map<string, Promise<AnalysisMemo>>();

  /** The view's memo as stored, read once per job: a fill and the analysis after it work on the same one. */
  memo(memoKey: string): Promise<AnalysisMemo> {
    const store = this.memos;
    return once(this.loadedMemos, memoKey, async () => parseMemo(store ? await store.load(memoKey) : null));
  }

  /**
   * Submissions of the phase still queued or being scored when the computation began: an
   * automatic resample count is then priced for the systems the board will have (issue #28: at the
   * start of a burst a board of 5 systems got 20 s of resamples that the board after the last
   * score could not reuse, and held the phase for 93 s).
   */
  pendingSystems = 0;

  matrix(phase: PhaseForMetrics & { testSetId: string }, selection: MetricSelection): Promise<PhaseScoreMatrix> {
    return once(this.matrices, JSON.stringify([selection.key, selection.kind === 'derived' ? selection.combined.w : null]), () => this.metrics.matrix(phase, selection, this.stamp));
  }

  scoredSubmissions(phaseId: string) {
    return (this.scored ??= this.submissions.ofPhase(phaseId, { status: 'SCORED' }));
  }

  corpusKeys(config: Parameters<typeof corpusStatisticsKeys>[1], testSetId: string, ids: string[]): Promise<CorpusStatisticsKeys | null> {
    return once(this.keys, JSON.stringify([config.key, ids]), () => corpusStatisticsKeys(this.scores, config, testSetId, ids));
  }

  corpusStats(config: Parameters<typeof corpusStatistics>[1], testSetId: string, ids: string[]): Promise<CorpusStatistics | null> {
    return once(this.stats, JSON.stringify([config.key, ids]), () => corpusStatistics(this.scores, config, testSetId, ids));
  }
}

/** The value kept under `key`, made by `make` the first time (views of one job share their reads). */
function once<T>(kept: Map<string, T>, key: string, make: () => T): T {
  let hit = kept.get(key);
  if (hit === undefined) kept.set(key, (hit = make()));
  return hit;
}

/** A view's significance settings: its own, else the phase's (the test: the one chosen, else the t-test). */
function viewSettings(view: LeaderboardView, phase: PhaseSignificanceSettings) {
  return { correction: view.correction, ...effectiveSettings(view, phase), explicitTest: view.test ?? undefined, test: view.test ?? PairedTest.TTEST };
}

/** One view of a phase's leaderboard, computed from its stored scores. */
export async function computeLeaderboard(
  inputs: LeaderboardInputs,
  phase: PhaseForMetrics & PhaseSignificanceSettings & { publishedAt?: Date | null; split?: unknown },
  selection: MetricSelection,
  available: string[],
  view: LeaderboardView,
): Promise<ComputedLeaderboard> {
  const phaseId = phase.id;
  const metric = selection.key;
  const { correction, seed, resamples, explicitTest, test } = viewSettings(view, phase);
  const base = {
    phaseId,
    metric,
    higherIsBetter: selection.higherIsBetter,
    availableMetrics: available,
    test,
    correction,
    seed,
    alpha: ALPHA,
    clusterDefinition: CLUSTER_DEFINITION,
  };
  const notes: string[] = selection.kind === 'derived' ? [COMBINED_CORPUS_NOTE] : [];
  const empty = {
    ...base,
    resamples: resamples ?? 0,
    resamplesChosen: resamples === undefined,
    smallestReachableP: 1,
    significanceWarnings: [],
    mainAggregation: 'mean',
    corpusSignature: '',
    clusterTests: [],
    methods: [],
    btFiniteMle: false,
    btNote: null,
    btComponents: [],
    metricSignature: '',
    instanceCount: 0,
    scoredOn: null,
    systems: [],
    pairs: [],
    disagreement: null,
  };
  if (!phase.testSetId) return { ...empty, notes: [...notes, 'the phase has no test set yet'] };
  const prepared = await prepareView(inputs, { ...phase, testSetId: phase.testSetId }, selection, view, notes);
  const { part, subset, scoredOnNote, matrix, idx, signature, memo, memoKey, rankingName, input, corpus } = prepared;
  // Finishing a stale analysis keeps its memo for the next one, unless the memos were filled first (nothing left to keep).
  inputs.onAnalysis?.(memo !== null && !inputs.memosFilled ? 'memo' : 'plain');
  let analysis: Analysis | null = null;
  if (idx.length > 0) {
    analysis = rankSystems(input, analysisOptions(inputs, prepared));
    if (memo && inputs.memos) await inputs.memos.save(memoKey, serialiseMemo(memo));
  }
  const main: 'corpus' | 'mean' = corpus && analysis && analysis.systems[0]?.corpus !== undefined ? 'corpus' : 'mean';
  // The pairs' p: the corpus analogue of bootstrap/AR (and paired-bs by default) for corpus metrics.
  const pTest: TestName =
    main === 'corpus' && (explicitTest === undefined || test === PairedTest.BOOTSTRAP || test === PairedTest.AR)
      ? test === PairedTest.AR
        ? 'ar_corpus'
        : 'bootstrap_corpus'
      : test;
  const rankInterval = (ci: readonly [number, number] | undefined) => (ci ? { best: ci[0], worst: ci[1] } : null);
  const byName = new Map(idx.map((k) => [rankingName(k), k]));
  const indexOf = (name: string): number => {
    const k = byName.get(name);
    if (k === undefined) throw new Error(`the analysis names system '${name}', which is not among the ranked systems`);
    return k;
  };
  const systems: LeaderboardSystem[] = (analysis?.systems ?? []).map((a) => {
    const k = indexOf(a.system);
    const s = at(matrix.systems, k);
    return {
      submissionId: s.submissionId,
      system: s.systemName,
      team: s.teamName,
      isBaseline: s.isBaseline,
      n: a.n,
      // On a part, a metric without corpus statistics has the mean of its instances as corpus score (as the worker computes it).
      corpusScore: finite(a.corpus ?? (subset ? a.mean : at(matrix.corpus, k).value)),
      corpusCi: a.corpus_ci ? { mean: finite(a.corpus_ci.mean), ci: finite(a.corpus_ci.ci), low: finite(a.corpus_ci.lower), high: finite(a.corpus_ci.upper) } : null,
      corpusSignature: corpus?.signature ?? at(matrix.corpus, k).signature,
      signature: at(matrix.signatures, k),
      mean: a.mean,
      meanCi: interval(a.mean_ci),
      median: a.median,
      medianCi: interval(a.median_ci),
      bt: finite(a.bt),
      btTier: a.bt_tier,
      btCi: interval(a.bt_ci),
      elo: finite(a.elo),
      trueskill: { mu: finite(a.trueskill.mu), sigma: finite(a.trueskill.sigma) },
      rank: { ...a.rank, corpus: a.rank.corpus ?? null },
      rankInterval: {
        mean: { best: a.rank_ci.mean[0], worst: a.rank_ci.mean[1] },
        median: { best: a.rank_ci.median[0], worst: a.rank_ci.median[1] },
        bt: { best: a.rank_ci.bt[0], worst: a.rank_ci.bt[1] },
        elo: rankInterval(a.rank_ci.elo),
        trueskill: rankInterval(a.rank_ci.trueskill),
        corpus: rankInterval(a.rank_ci.corpus),
      },
      cluster: { ...a.cluster, corpus: a.cluster.corpus ?? null },
      clusterDisagreement: a.cluster_disagreement,
      values: (analysis?.methods ?? []).flatMap(({ key }) => {
        const v = a.methods[key];
        if (!v) return [];
        return [{ method: key, value: finite(v.value), interval: v.interval ? interval(v.interval) : null, rank: v.rank, rankInterval: { best: v.rank_ci[0], worst: v.rank_ci[1] }, cluster: v.cluster }];
      }),
    };
  });
  const mainRank = (x: LeaderboardSystem) => (main === 'corpus' ? (x.rank.corpus ?? x.rank.mean) : x.rank.mean);
  systems.sort((x, y) => mainRank(x) - mainRank(y) || x.rank.bt - y.rank.bt || x.system.localeCompare(y.system));
  const nameOf = (name: string) => at(matrix.systems, indexOf(name)).systemName;
  const idOf = (name: string) => at(matrix.systems, indexOf(name)).submissionId;
  const pairs: SystemPair[] = (analysis?.pairs ?? []).map((p) => ({
    aSubmissionId: idOf(p.a),
    bSubmissionId: idOf(p.b),
    a: nameOf(p.a),
    b: nameOf(p.b),
    wins: p.wins,
    losses: p.losses,
    ties: p.ties,
    pBt: finite(p.p_bt),
    medianDiff: finite(p.median_diff),
    meanDiff: finite(p.mean_diff),
    p: finite(p.tests[pTest]?.p),
    pAdjusted: finite(p.p_adjusted[pTest]),
    pTest,
    testResults: PAIRED_TESTS.flatMap((t) => {
      const r = (p.tests as Partial<Record<string, { p: number }>>)[t.key];
      return r ? [{ test: t.key, p: finite(r.p) }] : [];
    }),
    significant: {
      mean: p.significant.mean ?? false,
      median: p.significant.median ?? false,
      bt: p.significant.bt ?? false,
      corpus: p.significant.corpus ?? null,
    },
  }));
  const settings = analysis?.settings;
  const nPairs = pairs.length;
  const usedResamples = settings && idx.length >= 2 ? settings.resamples : (resamples ?? 0);
  return {
    ...base,
    resamples: usedResamples,
    resamplesChosen: resamples === undefined,
    smallestReachableP: nPairs > 0 ? smallestReachableP(usedResamples, nPairs, correction) : 1,
    significanceWarnings: idx.length >= 2 ? (settings?.warnings ?? []) : [],
    mainAggregation: main,
    corpusSignature: corpus?.signature ?? mostCommon(idx.map((k) => at(matrix.corpus, k).signature)),
    clusterTests:
      idx.length >= 2 && settings
        ? Object.entries(settings.cluster_tests).map(([aggregation, t]) => ({ aggregation, test: t, label: TEST_LABELS[t] }))
        : [],
    methods: (analysis?.methods ?? []).map((m) => {
      // with fewer than two systems nothing is clustered
      const test = idx.length >= 2 && m.test ? m.test : null;
      return { ...m, clusters: test !== null, test, testLabel: test ? TEST_LABELS[test] : null };
    }),
    btFiniteMle: analysis?.bt_structure.finite_mle ?? false,
    btNote: analysis?.bt_structure.note ? [...byName.keys()].reduce((note, name) => note.split(name).join(nameOf(name)), analysis.bt_structure.note) : null,
    btComponents: (analysis?.bt_structure.components ?? []).map((c) => ({ tier: c.tier, systems: c.systems.map(nameOf) })),
    metricSignature: signature,
    instanceCount: matrix.instances.length,
    scoredOn: scoredOnNote ? { part: part.part, instances: matrix.instances.length, total: part.total, note: scoredOnNote } : null,
    systems,
    pairs,
    disagreement: topDisagreement(systems, pairs),
    notes,
  };
}


/** What a view's analysis reads, and the memo it keeps (see {@link prepareView}). */
interface PreparedView {
  part: ReturnType<typeof scoringPart>;
  subset: number[] | null;
  scoredOnNote: string | null;
  matrix: PhaseScoreMatrix;
  /** The matrix rows ranked (fully scored systems that enter the view). */
  idx: number[];
  /** The most common instance-level signature of the ranked systems. */
  signature: string;
  memo: AnalysisMemo | null;
  memoKey: string;
  rankingName: (k: number) => string;
  input: RankingInput;
  options: RankingOptions;
  corpusAr: boolean;
  corpus: CorpusStatistics | null;
  fingerprints: string[] | null;
}

/**
 * Everything a view's analysis reads, read once for {@link computeLeaderboard} and
 * {@link fillViewMemo} alike (so a memo filled ahead is filled in the analysis' own context):
 * the part of a split phase, the systems that enter, the view's memo, the analysis options, the
 * corpus statistics (with a memo, only of the systems it does not hold) and the fingerprints.
 * Adds its notes to `notes`.
 */
async function prepareView(
  inputs: LeaderboardInputs,
  phase: PhaseForMetrics & PhaseSignificanceSettings & { testSetId: string; publishedAt?: Date | null; split?: unknown },
  selection: MetricSelection,
  view: LeaderboardView,
  notes: string[],
): Promise<PreparedView> {
  const metric = selection.key;
  const { correction, seed, resamples, explicitTest, test } = viewSettings(view, phase);
  const full = await inputs.matrix(phase, selection);
  // A split phase ranks on its public part before publishing, on the private part (or all) after.
  const part = scoringPart({ publishedAt: phase.publishedAt ?? null, split: phase.split ?? null }, full.instances);
  const subset = part.positions;
  const scoredOnNote = scoringPartNote(part, parseStoredSplit(phase.split) !== null);
  if (scoredOnNote) notes.push(scoredOnNote);
  const matrix = subset
    ? { ...full, instances: subset.map((p) => at(full.instances, p)), values: full.values.map((row) => Float64Array.from(subset, (p) => row[p] ?? Number.NaN)) }
    : full;
  const entering = leaderboardEntries(await inputs.scoredSubmissions(phase.id), view.entries);
  // Only fully scored systems can be compared instance by instance.
  const keep = matrix.systems.map((_, s) => matrix.instances.length > 0 && allFinite(at(matrix.values, s)));
  if (matrix.instances.length === 0) notes.push(`the ${part.part} part of the split has no instances of this test set`);
  matrix.systems.forEach((s, k) => {
    if (!entering.has(s.submissionId)) keep[k] = false;
    else if (!keep[k]) notes.push(`${s.systemName} (${s.teamName}) has no complete '${metric}' scores and is left out`);
  });
  const idx = matrix.systems.map((_, k) => k).filter((k) => keep[k]);
  const signature = mostCommon(idx.map((k) => at(matrix.signatures, k)));
  if (new Set(idx.map((k) => matrix.signatures[k])).size > 1) {
    notes.push(`the systems' '${metric}' scores carry different signatures; rescore the phase to compare like with like`);
  }
  if (idx.length < 2) notes.push('significance tests and Bradley–Terry need at least two scored systems');
  // The view's memo (ADR 0027): what the previous computation of this view kept per system and pair.
  // Keyed by the analysis, not the view's wording: '' (the task's first metric) and that metric by
  // name are one analysis, computed under whichever view comes first, and share one memo.
  const memoKey = JSON.stringify([selection.key, selection.kind === 'derived' ? selection.combined.w : null, view.entries, view.test, view.correction, view.seed, view.resamples, part.part]);
  const memo = inputs.memos && idx.length >= 2 && idx.length * matrix.instances.length >= inputs.memoMinCells ? await inputs.memo(memoKey) : null;
  // The analysis names each system by what it is, not by its database id: its canonical order
  // (which seeds Elo's and TrueSkill's game orders and the order of every sum) is then the same in
  // every database holding the same submissions (a restored backup, an imported bundle).
  const rankingName = (k: number) => rankingNameOf(at(matrix.systems, k));
  const input = { systems: idx.map(rankingName), instances: matrix.instances, scores: idx.map((k) => at(matrix.values, k)), higherIsBetter: selection.higherIsBetter };
  const options: RankingOptions = {
    seed,
    correction,
    ...(resamples !== undefined ? { resamples } : {}),
    ...(inputs.pendingSystems > 0 ? { budgetSystems: idx.length + inputs.pendingSystems } : {}),
    ...(explicitTest ? { test: explicitTest } : {}),
  };
  // paired-ar on the corpus score costs about twice paired-bs: only when AR is asked for
  const corpusAr = test === PairedTest.AR;
  // Corpus-level metrics (BLEU, chrF, TER) rank by the corpus score, resampled from statistics.
  let corpus: CorpusStatistics | null = null;
  let fingerprints: string[] | null = null;
  if (selection.kind === 'stored' && idx.length >= 2) {
    const config = taskMetrics(phase.task).find((m) => m.key === selection.key);
    const ids = idx.map((k) => at(matrix.systems, k).submissionId);
    // With a memo (and the whole test set): the statistics known by their stored bytes' digest, and
    // read only for the systems the memo does not hold (issue #28: the board after the last score
    // read and decoded every system's, a hundred times the one it adds).
    const keys = config && memo && !subset ? await inputs.corpusKeys(config, phase.testSetId, ids) : null;
    if (config && memo && keys && keys.width > 0 && keys.keys.every((key): key is string => key !== null)) {
      fingerprints = systemFingerprints(matrix.instances, input.systems, input.scores, { keys: keys.keys });
      const widthOnly: FlatCorpusStats = { width: keys.width, data: [] };
      const needed = corpusStatsNeededFor(input, {
        ...options,
        corpus: { stats: widthOnly, corpusFromStats: () => Number.NaN, ar: corpusAr },
        memo: { memo, fingerprints },
      });
      const read = await inputs.corpusStats(config, phase.testSetId, ids.filter((_, s) => needed[s]));
      if (read) {
        const data = read.stats.data;
        let q = 0;
        const fp = fingerprints;
        corpus = {
          ...read,
          stats: { width: keys.width, data: needed.map((need) => (need ? at(data, q++) : new Float64Array(0))) },
          // the totals the memo kept, for the check below
          knownTotals: needed.map((need, s) => (need ? undefined : memo.systems.get(at(fp, s))?.corpusTotals)),
        };
      }
    } else if (config) corpus = await inputs.corpusStats(config, phase.testSetId, ids);
    // The recomputed statistics must reproduce the stored corpus scores (same signature and
    // value); otherwise the texts and the scores disagree, and the board falls back to the mean.
    if (corpus) {
      const recomputed = corpus;
      const stale = idx.filter((k, s) => {
        const stored = at(matrix.corpus, k);
        const totals = recomputed.knownTotals?.[s] ?? summedStats(at(recomputed.stats.data, s), recomputed.stats.width);
        const value = recomputed.corpusFromStats([Array.from(totals)]);
        return stored.signature !== recomputed.signature || !(Math.abs(stored.value - value) <= 1e-6 * Math.max(1, Math.abs(value)));
      });
      if (stale.length > 0) {
        notes.push(
          `the stored corpus '${metric}' scores of ${stale.map((k) => at(matrix.systems, k).systemName).join(', ')} do not match their outputs under ${corpus.signature}; ranked by the mean of instance scores until the phase is rescored`,
        );
        corpus = null;
        // the fingerprints named statistics the analysis now goes without
        fingerprints = null;
      }
    }
    if (corpus && subset) {
      const { width, data } = corpus.stats;
      corpus = { ...corpus, stats: { width, data: data.map((d) => pickRows(d, width, subset)) } };
    }
  }
  return { part, subset, scoredOnNote, matrix, idx, signature, memo, memoKey, rankingName, input, options, corpusAr, corpus, fingerprints };
}

/** The analysis options of a prepared view: its corpus statistics and its memo with the systems' fingerprints. */
function analysisOptions(inputs: LeaderboardInputs, p: PreparedView): RankingOptions {
  const { memo, memoKey, corpus, matrix, input } = p;
  return {
    ...p.options,
    ...(corpus ? { corpus: { stats: corpus.stats, corpusFromStats: corpus.corpusFromStats, ar: p.corpusAr } } : {}),
    ...(memo
      ? {
          memo: {
            memo,
            fingerprints: p.fingerprints ?? systemFingerprints(matrix.instances, input.systems, input.scores, corpus ? corpus.stats : null),
            onUse: (use: MemoUse) => inputs.memoUses.push({ memoKey, use }),
          },
        }
      : {}),
  };
}

/**
 * Fills a view's analysis memo ahead of its analysis (issue #28, ADR 0027): what the analysis
 * would keep for the systems and pairs the memo lacks (@podium/ranking's fillAnalysisMemo), from
 * the same inputs in the same context, then stores the memo. The board after the last score is
 * then one system's work even when the boards computed during the burst lagged behind it. Null:
 * the view keeps no memo (fewer than two systems, below `memoMinCells`, no store) or the phase
 * has no test set.
 */
export async function fillViewMemo(
  inputs: LeaderboardInputs,
  phase: PhaseForMetrics & PhaseSignificanceSettings & { publishedAt?: Date | null; split?: unknown },
  selection: MetricSelection,
  view: LeaderboardView,
): Promise<MemoUse | null> {
  if (!phase.testSetId || !inputs.memos) return null;
  // a fill is never worth dropping: its work is the next analysis'
  inputs.onAnalysis?.('fill');
  const prepared = await prepareView(inputs, { ...phase, testSetId: phase.testSetId }, selection, view, []);
  if (!prepared.memo || prepared.idx.length < 2) return null;
  const options = analysisOptions(inputs, prepared);
  if (!options.memo) return null;
  // A few systems at a time, the memo stored after each: a fill the worker terminates (the burst's
  // last score came) keeps what it filled, and the final computation adds only the rest.
  const total: MemoUse = { systemsReused: 0, systemsComputed: 0, pairsReused: 0, pairsComputed: 0 };
  const pairs = (prepared.input.systems.length * (prepared.input.systems.length - 1)) / 2;
  for (let first = true; ; first = false) {
    const use = fillMemoFor(prepared.input, { ...options, memo: options.memo }, FILL_SYSTEMS_AT_ONCE);
    if (first) total.systemsReused = use.systemsReused;
    total.systemsComputed += use.systemsComputed;
    total.pairsComputed += use.pairsComputed;
    if (use.systemsComputed > 0 || use.pairsComputed > 0) await inputs.memos.save(prepared.memoKey, serialiseMemo(prepared.memo));
    if (use.systemsLeft === 0) break;
  }
  total.pairsReused = pairs - total.pairsComputed;
  return total;
}

/**
 * Systems a memo fill adds before it stores the memo (fillViewMemo): at 100 × 100,000 a system of
 * BLEU or TER is about 1.3 s of fill, serialising and storing the memo a few hundredths
 * (`bench:incremental-board --fill --lag 6 --threads 2` under `node --cpu-prof`).
 */
export const FILL_SYSTEMS_AT_ONCE = 2;

/**
 * The name a system has in the analysis: team, system name and the checksum of its outputs, which
 * are the same wherever the submission is stored, then its id (unique, so two submissions that
 * agree on all three still get two names; their order is then the only thing ids decide).
 */
export function rankingNameOf(s: { teamName: string; systemName: string; checksum: string; submissionId: string }): string {
  return `${s.teamName}\u241f${s.systemName}\u241f${s.checksum}\u241f${s.submissionId}`;
}

/**
 * Whether every value of a score row is finite: a loop, not `every` with a callback (issue #28:
 * 10⁷ callbacks cost 0.2–0.3 s of each analysis at 100 systems × 100,000 instances).
 */
function allFinite(row: ArrayLike<number>): boolean {
  for (let l = 0; l < row.length; l++) if (!Number.isFinite(row[l])) return false;
  return true;
}
