import { bradleyTerryOrderKey, bradleyTerryProbability, fitBradleyTerrySufficient, type BradleyTerryOptions } from './bradley-terry';
import { clusters } from './clusters';
import { adjustPValues, type Correction } from './correction';
import { mean, percentileOfSorted } from './descriptive';
import { bootstrapAggregates, pairwiseCounts, sufficientFromWins } from './bootstrap';
import { bootstrapCounts, mulberry32 } from './prng';
import { moodMedianTestSorted, tTestFromDiffs, wilcoxonFromSortedDiffs } from './paired-tests';
import { rankDescending } from './ranks';
import { defaultGameOrders, eloRuns, trueSkillRuns } from './rating-systems';
import { bootstrapPValue, fillSwapMask, type CorpusFromStats } from './resampling';
import { orientedScores, RankingInputError, type ScoreTable } from './score-table';
import { binomialTwoSidedP } from './special-functions';

/** A paired significance test available for every pair of systems. */
export type TestName = 'ttest' | 'wilcoxon' | 'sign' | 'mood' | 'bootstrap' | 'ar';
/** The aggregations that get significance clusters. */
export type ClusteredAggregation = 'mean' | 'median' | 'bt';

/** Tests that drive clusters when {@link AnalyseOptions.test} is not given (Zhao thesis ch. 11 §3.2). */
export const DEFAULT_CLUSTER_TESTS: Readonly<Record<ClusteredAggregation, TestName>> = {
  mean: 'ttest', // MEAN ↔ paired t-test
  median: 'mood', // MEDIAN (of each system's scores) ↔ Mood's median test
  bt: 'sign', // BT (median of paired differences) ↔ sign test
};

/** Options for {@link analyseSystems}; every default is recorded in `Analysis.settings`. */
export interface AnalyseOptions {
  /** Seed for every stochastic step (bootstrap: seed; randomisation: seed + 1; Elo/TrueSkill orders: seed + 2). Default 12345. */
  seed?: number;
  /** Bootstrap resamples (intervals, bootstrap test) and randomisation trials. Default 1,000. */
  resamples?: number;
  /** Multiple-comparison correction over all pairs, per test. Default 'holm'. */
  correction?: Correction;
  /** Significance level for clusters. Default 0.05. */
  alpha?: number;
  /** One test to drive all clusters; default {@link DEFAULT_CLUSTER_TESTS}. */
  test?: TestName;
  /** Random game orders averaged for Elo and TrueSkill. Default {@link defaultGameOrders} (10; fewer for huge inputs). */
  eloOrders?: number;
  /** Options for every Bradley–Terry fit. */
  bradleyTerry?: Pick<BradleyTerryOptions, 'tolerance' | 'maxIterations'>;
  /**
   * Optional per-instance sufficient statistics (stats[system][instance] = number[], systems in
   * table order) and their corpus scorer (e.g. corpus BLEU): adds `bootstrap_corpus` and
   * `ar_corpus` tests as sacreBLEU's paired-bs / paired-ar, and `corpus` per system.
   */
  corpus?: { stats: number[][][]; corpusFromStats: CorpusFromStats };
}

/** Per-system results. Non-finite numbers (an unbounded BT strength) serialise to JSON null. */
export interface SystemSummary {
  system: string;
  n: number;
  mean: number;
  median: number;
  /** Bradley–Terry strength within the system's component of the win graph (see `bt_structure`). */
  bt: number;
  bt_ci: [number, number];
  /** Dominance tier of the system's win-graph component (0 = top); all 0 when the MLE is finite. */
  bt_tier: number;
  /** Win-graph component id (strongly connected component). */
  bt_component: number;
  elo: number;
  trueskill: { mu: number; sigma: number };
  rank: { mean: number; median: number; bt: number; elo: number; trueskill: number };
  /**
   * 95% rank intervals: bootstrap over instances for mean/median/BT; for Elo and TrueSkill the
   * 2.5–97.5 percentiles of ranks over the random game orders (order sensitivity only; always set
   * by analyseSystems, optional in the type so hand-built summaries stay valid).
   */
  rank_ci: { mean: [number, number]; median: [number, number]; bt: [number, number]; elo?: [number, number]; trueskill?: [number, number] };
  mean_ci: [number, number];
  median_ci: [number, number];
  cluster: { mean: number; median: number; bt: number };
  /** True when this system is in a pair whose cluster relation differs between mean, median and BT. */
  cluster_disagreement: boolean;
  corpus?: number;
}

/** A statistic (maybe ±Infinity → JSON null) and p-value. */
export interface StatP {
  statistic: number;
  p: number;
}

/** Per-pair results; "a" is the first system in table order, differences are a − b. */
export interface PairSummary {
  a: string;
  b: string;
  wins: number;
  losses: number;
  ties: number;
  p_bt: number;
  median_diff: number;
  mean_diff: number;
  tests: {
    ttest: StatP;
    wilcoxon: StatP;
    sign: { p: number };
    mood: StatP;
    bootstrap: { p: number };
    ar: { p: number };
    bootstrap_corpus?: { p: number };
    ar_corpus?: { p: number };
  };
  p_adjusted: Record<string, number>;
}

/** Cluster relation of a pair under each aggregation: '>' a's cluster is better, '<' worse, '=' same. */
export interface ClusterDisagreement {
  a: string;
  b: string;
  mean: '>' | '<' | '=';
  median: '>' | '<' | '=';
  bt: '>' | '<' | '=';
}

/** The whole leaderboard: what `podium rank` prints and the API serves. */
export interface Analysis {
  systems: SystemSummary[];
  /**
   * The win graph behind Bradley–Terry: `finite_mle` true when it is strongly connected (the MLE
   * exists and is unique). Otherwise the strongly connected components, in dominance order, each
   * fitted alone; `note` says so in words. `no_finite_mle_resamples`: bootstrap resamples without one.
   */
  bt_structure: { finite_mle: boolean; components: { tier: number; systems: string[] }[]; note: string | null; no_finite_mle_resamples: number };
  pairs: PairSummary[];
  disagreements: ClusterDisagreement[];
  settings: {
    seed: number;
    resamples: number;
    correction: Correction;
    alpha: number;
    elo_orders: number;
    cluster_tests: Record<ClusteredAggregation, TestName>;
    higher_is_better: boolean;
    n_systems: number;
    n_instances: number;
    bt_nonconverged_resamples: number;
  };
}

const TESTS: TestName[] = ['ttest', 'wilcoxon', 'sign', 'mood', 'bootstrap', 'ar'];

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Canonical order (systems and instances sorted) so results do not depend on input order. */
function canonicalise(table: ScoreTable): { x: Float64Array[]; sysOrder: number[]; instOrder: number[] } {
  const oriented = orientedScores(table);
  const sysOrder = table.systems.map((_, i) => i).sort((a, b) => byCodeUnit(table.systems[a], table.systems[b]));
  if (new Set(table.instances).size !== table.instances.length) throw new RankingInputError('instance ids must be unique');
  const instOrder = table.instances.map((_, i) => i).sort((a, b) => byCodeUnit(table.instances[a], table.instances[b]));
  const x = sysOrder.map((s) => {
    const row = new Float64Array(instOrder.length);
    for (let l = 0; l < instOrder.length; l++) row[l] = oriented[s][instOrder[l]];
    return row;
  });
  return { x, sysOrder, instOrder };
}

function exactMedianSorted(sorted: Float64Array): number {
  const n = sorted.length;
  const h = n >> 1;
  return n % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

const interval = (sorted: Float64Array): [number, number] => [percentileOfSorted(sorted, 2.5), percentileOfSorted(sorted, 97.5)];

/**
 * The full leaderboard for systems scored on the same instances: MEAN, MEDIAN, Bradley–Terry
 * (bootstrap 95% intervals of strengths and ranks), Elo, TrueSkill; for every pair, wins/losses/
 * ties, p_bt, the median of paired differences and six paired tests with corrected p-values; and
 * significance clusters for mean, median and BT side by side with disagreements flagged.
 *
 * Reproducible: systems and instances are put in a canonical (sorted) order first and every
 * random step is seeded, so permuting rows or columns of the input changes nothing.
 * Resampling: one multinomial count vector per resample is shared by all systems and pairs
 * (docs/adr/0003-shared-resample-weights.md); O(k·n) per resample plus the k×k BT refit.
 * Reference: Peyrard et al. (2021), "Better than average: paired evaluation of NLP systems"
 * (Zhao thesis ch. 11); Koehn (2004) bootstrap; Holm (1979).
 * @example analyseSystems({ systems: ['A', 'B', 'C'], instances: ['1', '2', '3', '4', '5'],
 *   scores: [[1, 5, 11, 12, 17], [5, 11, 12, 17, 1], [2, 6, 7, 13, 18]] }).systems[1].bt; // ≈ 0.657
 */
export function analyseSystems(table: ScoreTable, options: AnalyseOptions = {}): Analysis {
  const seed = options.seed ?? 12345;
  const R = options.resamples ?? 1000;
  const correction = options.correction ?? 'holm';
  const alpha = options.alpha ?? 0.05;
  const eloOrders = options.eloOrders ?? defaultGameOrders(table.systems.length, table.instances.length);
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('resamples must be a positive integer');
  if (!(alpha > 0 && alpha < 1)) throw new RankingInputError('alpha must be in (0, 1)');
  if (!Number.isInteger(seed)) throw new RankingInputError('seed must be an integer');
  if (table.systems.length < 2) throw new RankingInputError('need at least two systems to rank');
  if (table.instances.length < 1) throw new RankingInputError('need at least one instance');
  const sign = table.higherIsBetter === false ? -1 : 1;
  const { x, sysOrder, instOrder } = canonicalise(table);
  const k = x.length;
  const n = x[0].length;
  // canon[c] = input index of canonical system c; pos[input] = canonical index
  const pos = new Array<number>(k);
  sysOrder.forEach((inputIdx, c) => (pos[inputIdx] = c));
  const btOpts: BradleyTerryOptions = { tolerance: options.bradleyTerry?.tolerance ?? 1e-9, maxIterations: options.bradleyTerry?.maxIterations ?? 10000 };

  // Point estimates.
  const sorted = x.map((row) => Float64Array.from(row).sort());
  const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => row[a] - row[b]));
  const means = x.map((row) => mean(row));
  const medians = sorted.map(exactMedianSorted);
  const pc = pairwiseCounts(x);
  const suff = sufficientFromWins(pc.wins, k);
  const btFit = fitBradleyTerrySufficient(suff.W, suff.N, k, btOpts, (i, j) => pc.wins[i * k + j] > 0);
  const btKey = Array.from(btFit.strengths, (s, i) => bradleyTerryOrderKey(s, btFit.tier[i], btFit.tiers));

  // Bootstrap: shared multinomial counts for all systems (means, medians, BT, mean-difference test).
  const boot = bootstrapAggregates(x, pc, sortIdx, btFit.strengths, R, seed, btOpts);
  const { bMean, bMedian, bBt, bBtKey } = boot;
  const nonConverged = boot.nonConverged;

  // Bootstrap intervals of values and ranks.
  const column = (buf: Float64Array, i: number): Float64Array => {
    const out = new Float64Array(R);
    for (let r = 0; r < R; r++) out[r] = buf[r * k + i];
    return out.sort();
  };
  const rankColumns = (buf: Float64Array, tol: number): Float64Array[] => {
    const cols = Array.from({ length: k }, () => new Float64Array(R));
    for (let r = 0; r < R; r++) {
      const ranks = rankDescending(buf.subarray(r * k, (r + 1) * k), tol);
      for (let i = 0; i < k; i++) cols[i][r] = ranks[i];
    }
    return cols.map((c) => c.sort());
  };
  const rankInterval = (col: Float64Array): [number, number] => [Math.floor(percentileOfSorted(col, 2.5)), Math.ceil(percentileOfSorted(col, 97.5))];
  const meanRankCols = rankColumns(bMean, 1e-12);
  const medianRankCols = rankColumns(bMedian, 1e-12);
  const btRankCols = rankColumns(bBtKey, 1e-9);

  // Approximate randomisation: one shared swap mask per trial, O(k·n) per trial.
  const arRng = mulberry32((seed + 1) >>> 0);
  const mask = new Float64Array(n);
  const sums = x.map((row) => {
    let s = 0;
    for (let l = 0; l < n; l++) s += row[l];
    return s;
  });
  const arExceed = new Int32Array(k * k);
  const S = new Float64Array(k);
  const swappedIdx = new Int32Array(n);
  for (let r = 0; r < R; r++) {
    fillSwapMask(mask, arRng);
    let m = 0;
    for (let l = 0; l < n; l++) if (mask[l] !== 0) swappedIdx[m++] = l;
    for (let i = 0; i < k; i++) {
      const xi = x[i];
      let s = 0;
      for (let q = 0; q < m; q++) s += xi[swappedIdx[q]];
      S[i] = s;
    }
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const D = sums[i] - sums[j];
        const obs = Math.abs(D);
        if (Math.abs(D - 2 * (S[i] - S[j])) >= obs - 1e-12 * Math.max(1, obs)) arExceed[i * k + j]++;
      }
    }
  }

  // Optional corpus-level resampling tests.
  let corpusScores: number[] | null = null;
  let corpusBoot: Float64Array | null = null;
  let corpusAr: ((i: number, j: number) => number) | null = null;
  if (options.corpus) {
    const res = corpusResampling(options.corpus, sysOrder, instOrder, R, seed);
    corpusScores = res.scores;
    corpusBoot = res.boot;
    corpusAr = res.arP;
  }

  // Pairs (in input order a < b), each test on canonical arrays.
  const canonTable: ScoreTable = {
    systems: sysOrder.map((i) => table.systems[i]),
    instances: instOrder.map((l) => table.instances[l]),
    scores: x.map((r) => Array.from(r)),
  };
  const eloResult = eloRuns(canonTable, { orders: eloOrders, seed: (seed + 2) >>> 0 });
  const tsResult = trueSkillRuns(canonTable, { orders: eloOrders, seed: (seed + 2) >>> 0 });
  const elos = eloResult.mean;
  const ts = tsResult.mean;
  const pairs: PairSummary[] = [];
  const pairIndex = new Map<number, number>();
  const d = new Float64Array(n);
  const raw: Record<string, number[]> = {};
  for (const t of [...TESTS, ...(options.corpus ? ['bootstrap_corpus', 'ar_corpus'] : [])]) raw[t] = [];
  // direction[test][pair] > 0 when a is better than b by that test's own statistic (oriented).
  const direction: Record<string, number[]> = {};
  for (const t of TESTS) direction[t] = [];
  const diffs = new Float64Array(R);
  for (let ia = 0; ia < k; ia++) {
    for (let ib = ia + 1; ib < k; ib++) {
      const i = pos[ia];
      const j = pos[ib];
      const xi = x[i];
      const xj = x[j];
      for (let l = 0; l < n; l++) d[l] = xi[l] - xj[l];
      const t = tTestFromDiffs(d);
      const sd = d.sort();
      const medDiff = exactMedianSorted(sd);
      const wil = wilcoxonFromSortedDiffs(sd);
      const wins = pc.wins[i * k + j];
      const losses = pc.wins[j * k + i];
      const signP = binomialTwoSidedP(wins, wins + losses);
      const mood = moodMedianTestSorted(sorted[i], sorted[j]);
      for (let r = 0; r < R; r++) diffs[r] = bMean[r * k + i] - bMean[r * k + j];
      const bootP = bootstrapPValue(diffs, means[i] - means[j]);
      const lo = Math.min(i, j);
      const hi = Math.max(i, j);
      const arP = (arExceed[lo * k + hi] + 1) / (R + 1);
      const tests: PairSummary['tests'] = {
        ttest: { statistic: sign * t.statistic, p: t.p },
        wilcoxon: { statistic: wil.statistic, p: wil.p },
        sign: { p: signP },
        mood: { statistic: mood.statistic, p: mood.p },
        bootstrap: { p: bootP },
        ar: { p: arP },
      };
      if (corpusBoot && corpusAr && corpusScores) {
        for (let r = 0; r < R; r++) diffs[r] = corpusBoot[r * k + i] - corpusBoot[r * k + j];
        tests.bootstrap_corpus = { p: bootstrapPValue(diffs, corpusScores[i] - corpusScores[j]) };
        tests.ar_corpus = { p: corpusAr(i, j) };
      }
      pairIndex.set(ia * k + ib, pairs.length);
      pairs.push({
        a: table.systems[ia],
        b: table.systems[ib],
        wins,
        losses,
        ties: n - wins - losses,
        p_bt: bradleyTerryProbability(btFit.strengths, i, j, btFit),
        median_diff: sign * medDiff + 0,
        mean_diff: sign * (means[i] - means[j]) + 0,
        tests,
        p_adjusted: {},
      });
      raw.ttest.push(t.p);
      raw.wilcoxon.push(wil.p);
      raw.sign.push(signP);
      raw.mood.push(mood.p);
      raw.bootstrap.push(bootP);
      raw.ar.push(arP);
      if (tests.bootstrap_corpus && tests.ar_corpus) {
        raw.bootstrap_corpus.push(tests.bootstrap_corpus.p);
        raw.ar_corpus.push(tests.ar_corpus.p);
      }
      const meanDir = means[i] - means[j];
      direction.ttest.push(meanDir);
      direction.bootstrap.push(meanDir);
      direction.ar.push(meanDir);
      direction.wilcoxon.push(wil.rPlus - wil.rMinus);
      direction.sign.push(wins - losses);
      direction.mood.push(medians[i] - medians[j]);
    }
  }
  const adjusted: Record<string, number[]> = {};
  for (const [name, ps] of Object.entries(raw)) adjusted[name] = adjustPValues(ps, correction);
  pairs.forEach((p, q) => {
    for (const name of Object.keys(raw)) p.p_adjusted[name] = adjusted[name][q];
  });

  // Clusters per aggregation (canonical indices → input pair lookup).
  const clusterTests: Record<ClusteredAggregation, TestName> = options.test
    ? { mean: options.test, median: options.test, bt: options.test }
    : { ...DEFAULT_CLUSTER_TESTS };
  const better = (test: TestName) => (ci: number, cj: number): boolean => {
    const ia = sysOrder[ci];
    const ib = sysOrder[cj];
    const q = pairIndex.get(Math.min(ia, ib) * k + Math.max(ia, ib)) as number;
    const dir = ia < ib ? direction[test][q] : -direction[test][q];
    return adjusted[test][q] < alpha && dir > 0;
  };
  const clusterMean = clusters(means, better(clusterTests.mean));
  const clusterMedian = clusters(medians, better(clusterTests.median));
  const clusterBt = clusters(btKey, better(clusterTests.bt));

  const rankMean = rankDescending(means, 1e-12);
  const rankMedian = rankDescending(medians, 1e-12);
  const rankBt = rankDescending(btKey, 1e-9);
  const rankElo = rankDescending(elos, 1e-9);
  const rankTs = rankDescending(ts.map((r) => r.mu), 1e-9);
  // Elo/TrueSkill rank intervals: spread of ranks over the random game orders (order uncertainty).
  const orderRankCi = (runs: number[][]): [number, number][] => {
    const cols = Array.from({ length: k }, () => new Float64Array(runs.length));
    runs.forEach((run, o) => rankDescending(run, 1e-9).forEach((r, i) => (cols[i][o] = r)));
    return cols.map((c) => rankInterval(c.sort()));
  };
  const eloRankCi = orderRankCi(eloResult.runs);
  const tsRankCi = orderRankCi(tsResult.runs);

  const rel = (ca: number, cb: number): '>' | '<' | '=' => (ca < cb ? '>' : ca > cb ? '<' : '=');
  const disagreements: ClusterDisagreement[] = [];
  const flagged = new Set<number>();
  for (let ia = 0; ia < k; ia++) {
    for (let ib = ia + 1; ib < k; ib++) {
      const i = pos[ia];
      const j = pos[ib];
      const m = rel(clusterMean[i], clusterMean[j]);
      const md = rel(clusterMedian[i], clusterMedian[j]);
      const b = rel(clusterBt[i], clusterBt[j]);
      if (m !== md || m !== b) {
        disagreements.push({ a: table.systems[ia], b: table.systems[ib], mean: m, median: md, bt: b });
        flagged.add(ia);
        flagged.add(ib);
      }
    }
  }

  const flip = (iv: [number, number]): [number, number] => (sign === 1 ? iv : [-iv[1] + 0, -iv[0] + 0]);
  const systems: SystemSummary[] = table.systems.map((name, ia) => {
    const i = pos[ia];
    const summary: SystemSummary = {
      system: name,
      n,
      mean: sign * means[i] + 0,
      median: sign * medians[i] + 0,
      bt: btFit.strengths[i],
      bt_tier: btFit.tier[i],
      bt_component: btFit.component[i],
      bt_ci: interval(column(bBt, i)),
      elo: elos[i],
      trueskill: { mu: ts[i].mu, sigma: ts[i].sigma },
      rank: { mean: rankMean[i], median: rankMedian[i], bt: rankBt[i], elo: rankElo[i], trueskill: rankTs[i] },
      rank_ci: {
        mean: rankInterval(meanRankCols[i]),
        median: rankInterval(medianRankCols[i]),
        bt: rankInterval(btRankCols[i]),
        elo: eloRankCi[i],
        trueskill: tsRankCi[i],
      },
      mean_ci: flip(interval(column(bMean, i))),
      median_ci: flip(interval(column(bMedian, i))),
      cluster: { mean: clusterMean[i], median: clusterMedian[i], bt: clusterBt[i] },
      cluster_disagreement: flagged.has(ia),
    };
    if (corpusScores) summary.corpus = corpusScores[i];
    return summary;
  });

  const components = btFit.dominates.map((_, c) => ({
    tier: btFit.tier[btFit.component.indexOf(c)],
    systems: table.systems.filter((_, ia) => btFit.component[pos[ia]] === c),
  }));
  const bt_structure = {
    finite_mle: btFit.finiteMle,
    components,
    note: btFit.finiteMle ? null : bradleyTerryNote(components),
    no_finite_mle_resamples: boot.noFiniteMle,
  };
  return {
    systems,
    bt_structure,
    pairs,
    disagreements,
    settings: {
      seed,
      resamples: R,
      correction,
      alpha,
      elo_orders: eloOrders,
      cluster_tests: clusterTests,
      higher_is_better: sign === 1,
      n_systems: k,
      n_instances: n,
      bt_nonconverged_resamples: nonConverged,
    },
  };
}

/** Says in words why Bradley–Terry has no finite maximum-likelihood estimate. */
export function bradleyTerryNote(components: { tier: number; systems: string[] }[]): string {
  const list = components.map((c) => `tier ${c.tier + 1}: ${c.systems.join(', ')}`).join('; ');
  return (
    `Bradley–Terry has no finite maximum-likelihood estimate: the win graph splits into ${components.length} groups ` +
    `where no system of a lower group ever beats a system of a higher one, or groups never meet (${list}). ` +
    'Strengths are fitted within each group and compare only inside it; groups are ranked by dominance, and groups in the same tier that never met are not comparable.'
  );
}

/** Corpus-level paired bootstrap (shared counts, seed) and AR (shared swap masks, seed + 1). */
function corpusResampling(
  corpus: { stats: number[][][]; corpusFromStats: CorpusFromStats },
  sysOrder: number[],
  instOrder: number[],
  R: number,
  seed: number,
): { scores: number[]; boot: Float64Array; arP: (i: number, j: number) => number } {
  const k = sysOrder.length;
  const n = instOrder.length;
  if (corpus.stats.length !== k) throw new RankingInputError(`corpus statistics given for ${corpus.stats.length} systems, expected ${k}`);
  const dim = corpus.stats[0]?.[0]?.length ?? 0;
  // flat[i][l*dim + c], canonical order
  const flat = sysOrder.map((s) => {
    const rows = corpus.stats[s];
    if (rows.length !== n) throw new RankingInputError(`corpus statistics for system ${s} cover ${rows.length} instances, expected ${n}`);
    const out = new Float64Array(n * dim);
    instOrder.forEach((inst, l) => {
      const row = rows[inst];
      if (row.length !== dim) throw new RankingInputError('corpus statistics rows must all have the same length');
      for (let c = 0; c < dim; c++) out[l * dim + c] = row[c];
    });
    return out;
  });
  const weighted = (f: Float64Array, w: ArrayLike<number> | null): number[] => {
    const acc = new Array<number>(dim).fill(0);
    for (let l = 0; l < n; l++) {
      const wl = w ? w[l] : 1;
      if (wl === 0) continue;
      for (let c = 0; c < dim; c++) acc[c] += wl * f[l * dim + c];
    }
    return acc;
  };
  const totals = flat.map((f) => weighted(f, null));
  const scores = totals.map((t) => corpus.corpusFromStats([t]));
  const rng = mulberry32(seed);
  const counts = new Int32Array(n);
  const boot = new Float64Array(R * k);
  for (let r = 0; r < R; r++) {
    bootstrapCounts(n, rng, counts);
    for (let i = 0; i < k; i++) boot[r * k + i] = corpus.corpusFromStats([weighted(flat[i], counts)]);
  }
  const arRng = mulberry32((seed + 1) >>> 0);
  const mask = new Float64Array(n);
  const exceed = new Int32Array(k * k);
  for (let r = 0; r < R; r++) {
    fillSwapMask(mask, arRng);
    const swapped = flat.map((f) => weighted(f, mask));
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const a2 = totals[i].map((v, c) => v - swapped[i][c] + swapped[j][c]);
        const b2 = totals[j].map((v, c) => v - swapped[j][c] + swapped[i][c]);
        const stat = Math.abs(corpus.corpusFromStats([a2]) - corpus.corpusFromStats([b2]));
        const obs = Math.abs(scores[i] - scores[j]);
        if (stat >= obs - 1e-12 * Math.max(1, obs)) exceed[i * k + j]++;
      }
    }
  }
  return { scores, boot, arP: (i, j) => (exceed[Math.min(i, j) * k + Math.max(i, j)] + 1) / (R + 1) };
}
