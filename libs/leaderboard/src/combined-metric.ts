// MENLI's combined metric at read time, over the stored component scores: the formula, corpus
// score and signature are the combined plugin's in @podium/metrics (combineScores, combinedCorpus,
// combinedSignature); this file picks the pair from
// the task and the normalisation set, every instance score of the phase (all scored submissions,
// as the paper's code does per language pair over all systems). Nothing is stored, so C follows
// the phase as submissions arrive; the bounds and the set's size go into the signature.
import type { MetricConfig, TaskKindName } from '@podium/contracts';
import type { PhaseScoreMatrix } from '@podium/db';
import { at } from '@podium/contracts';
import { combineScores, combineWeightFor, combinedCorpus, combinedRole, combinedSignature, metricDefinition } from '@podium/metrics';

/** The role a configured metric takes in the combined metric, from its plugin's capability (never its name). */
const isWeighted = (m: MetricConfig): boolean => combinedRole(metricDefinition(m.name)?.capability) === 'weighted';
const isOther = (m: MetricConfig): boolean => combinedRole(metricDefinition(m.name)?.capability) === 'other';

/** Key prefix of combined metrics: `combined:<nliKey>+<otherKey>`; bare `combined` is the task's default pair. */
export const COMBINED_PREFIX = 'combined';

/** A combined metric picked from a task's configuration. */
export interface CombinedMetric {
  /** Canonical key, `combined:<nliKey>+<otherKey>`. */
  key: string;
  nli: MetricConfig;
  other: MetricConfig;
  /** Weight of the NLI component. */
  w: number;
  otherHigherIsBetter: boolean;
}

export function combinedKey(nliKey: string, otherKey: string): string {
  return `${COMBINED_PREFIX}:${nliKey}+${otherKey}`;
}

export function isCombinedKey(key: string): boolean {
  return key === COMBINED_PREFIX || key.startsWith(`${COMBINED_PREFIX}:`);
}

/** The task's weight, else MENLI's default for its kind: .8 for summarisation (M:1466), .2 otherwise (MT, M:1329–1334). */
export function combinedWeightFor(kind: TaskKindName, configured: number | null | undefined): number {
  return combineWeightFor(kind, configured);
}

/**
 * Pairs of (NLI metric, other metric) a phase can combine: every `nli` metric of the task with
 * scores, with every other metric with scores, in configuration order.
 */
export function combinablePairs(configured: readonly MetricConfig[], scored: readonly string[]): [MetricConfig, MetricConfig][] {
  const has = new Set(scored);
  const nli = configured.filter((m) => isWeighted(m) && has.has(m.key));
  const others = configured.filter((m) => isOther(m) && has.has(m.key));
  return nli.flatMap((n) => others.map((o): [MetricConfig, MetricConfig] => [n, o]));
}

/**
 * Resolves `combined` or `combined:<nliKey>+<otherKey>` against the task's metrics. Keys may
 * themselves contain '+' (`chrf++`), so every split point is tried. Returns a reason on failure.
 */
export function resolveCombined(
  key: string,
  configured: readonly MetricConfig[],
  scored: readonly string[],
  weight: number,
  higherIsBetter: (name: string) => boolean,
): CombinedMetric | { error: string } {
  let pair: [MetricConfig, MetricConfig] | undefined;
  if (key === COMBINED_PREFIX) {
    const nli = configured.find(isWeighted);
    if (!nli) return { error: "the task configures no 'nli' metric to combine" };
    pair = combinablePairs(configured, scored)[0];
    if (!pair) {
      const other = configured.find(isOther);
      if (!other) return { error: "the task configures no metric besides 'nli' to combine it with" };
      pair = [nli, other];
    }
  } else {
    const rest = key.slice(COMBINED_PREFIX.length + 1);
    for (let i = rest.indexOf('+'); i > 0 && !pair; i = rest.indexOf('+', i + 1)) {
      const n = configured.find((m) => m.key === rest.slice(0, i) && isWeighted(m));
      const o = configured.find((m) => m.key === rest.slice(i + 1) && isOther(m));
      if (n && o) pair = [n, o];
    }
    if (!pair) {
      const nli = configured.filter(isWeighted).map((m) => m.key);
      const others = configured.filter(isOther).map((m) => m.key);
      return {
        error: `'${key}' names no combination of the task's metrics; use combined:<nli key>+<other key> with an nli key of [${nli.join(', ')}] and another of [${others.join(', ')}]`,
      };
    }
  }
  if (!(weight >= 0 && weight <= 1)) return { error: `the task's combined weight ${weight} is outside [0, 1]` };
  const [nli, other] = pair;
  return { key: combinedKey(nli.key, other.key), nli, other, w: weight, otherHigherIsBetter: higherIsBetter(other.name) };
}

/** A combined score matrix and what it was scaled with. */
export interface CombinedMatrix extends PhaseScoreMatrix {
  /** Phase-wide part of the signature (weight, scaling, bounds, population). */
  scaling: { N: [number, number]; M: [number, number]; n: number } | null;
}

/**
 * Combines two matrices of the same phase (same systems and instances, as
 * `ScoreRepository.matrix` returns them). The scaling population is every cell where both
 * components are stored; a cell missing either stays NaN. Each system's signature pins its
 * component signatures, the weight, the scaling and its bounds; the corpus score is the mean of
 * the system's instance values (C is defined per instance).
 *
 * @example with N = [[0, .5], [1, .5]], M (TER, lower is better) = [[10, 30], [20, 30]], w = .2:
 * N scales to [[0, .5], [1, .5]], M flips to [[1, 0], [.5, 0]], C = [[.8, .1], [.6, .1]].
 */
export function combineMatrices(spec: CombinedMetric, nli: PhaseScoreMatrix, other: PhaseScoreMatrix): CombinedMatrix {
  if (other.instances.length !== nli.instances.length || other.instances.some((id, i) => id !== nli.instances[i])) {
    throw new Error('combined metric: the component matrices list different instances');
  }
  // The two reads may straddle a submission being scored: keep the systems both list.
  const otherRow = new Map(other.systems.map((s, k) => [s.submissionId, k]));
  const pick = nli.systems.map((s, k) => [k, otherRow.get(s.submissionId)] as const).filter((p): p is readonly [number, number] => p[1] !== undefined);
  const rows = pick.map(([k, j]) => ({
    system: at(nli.systems, k),
    n: at(nli.values, k),
    m: at(other.values, j),
    nSig: at(nli.signatures, k),
    mSig: at(other.signatures, j),
  }));
  const systems = rows.map((r) => r.system);
  const instances = nli.instances;
  const ns: number[] = [];
  const ms: number[] = [];
  const cells: [number, number][] = [];
  rows.forEach((r, k) => {
    for (let i = 0; i < instances.length; i++) {
      const n = at(r.n, i);
      const m = at(r.m, i);
      if (Number.isFinite(n) && Number.isFinite(m)) {
        ns.push(n);
        ms.push(m);
        cells.push([k, i]);
      }
    }
  });
  const values = systems.map(() => new Float64Array(instances.length).fill(Number.NaN));
  let scaling: CombinedMatrix['scaling'] = null;
  if (cells.length > 0) {
    const c = combineScores(ns, ms, spec.w, { otherHigherIsBetter: spec.otherHigherIsBetter });
    cells.forEach(([k, i], j) => (at(values, k)[i] = at(c.values, j)));
    scaling = { N: c.bounds.nli, M: c.bounds.other, n: cells.length };
  }
  const signatures = rows.map((r) =>
    combinedSignature({
      nliSignature: r.nSig,
      otherSignature: r.mSig,
      w: spec.w,
      otherHigherIsBetter: spec.otherHigherIsBetter,
      scale: 'phase',
      bounds: scaling ? { nli: scaling.N, other: scaling.M } : undefined,
      n: scaling?.n ?? 0,
    }),
  );
  const corpus = values.map((row, k) => ({ value: combinedCorpus(row), signature: `${at(signatures, k)}|corpus:mean` }));
  return { systems, instances, values, signatures, corpus, scaling };
}
