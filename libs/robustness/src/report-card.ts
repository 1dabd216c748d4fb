import { kendallTauB, pearson } from './correlation';
import type { DaJudgement } from '@podium/datasets';
import type { PreferenceReport } from './preference-test';

/** Correlation of a metric with human judgements at segment and system level. */
export interface MetaEvaluation {
  /**
   * Correlations are oriented so that positive means agreeing with humans: scores of a
   * lower-is-better metric (TER) are negated first.
   */
  segment: { pearson: number; kendallTauB: number; n: number };
  system: { pearson: number; n: number; systems: string[] };
}

/** Everything Podium knows about one metric's quality: robustness next to correlation. */
export interface ReportCard {
  metric: string;
  signature: string;
  higherIsBetter: boolean;
  robustness: {
    suite: string;
    mode: string;
    overall: PreferenceReport['overall'];
    phenomena: Record<string, { accuracy: number; n: number }>;
  } | null;
  humanCorrelation: MetaEvaluation | null;
}

/** Inputs for {@link metaEvaluate}: human judgements and the metric's scores of the same outputs. */
export interface MetaEvaluationInput {
  judgements: readonly DaJudgement[];
  /** Sentence score of `system`'s output for 1-based segment `sid`; undefined when not scored. */
  segmentScore: (system: string, sid: number) => number | undefined;
  /** Corpus-level score per system. */
  systemScores: Readonly<Record<string, number>>;
  higherIsBetter: boolean;
}

/** DA judgements restricted to scored systems, with each system's mean human score. */
export interface AlignedJudgements {
  /** One point per judgement naming at least one scored system (joined names filtered to those). */
  segments: { systems: string[]; sid: number; human: number }[];
  /** Scored systems with at least one judgement, sorted. */
  systems: string[];
  /** Mean DA of each of `systems`; a joined judgement counts for every system it names. */
  systemHuman: number[];
}

/**
 * Aligns judgements with the systems that have scores. A judgement of joined systems
 * ("A+B", identical outputs) stays one segment-level point and counts towards each listed
 * system's mean, as in WMT's system-level DA averages.
 */
export function alignJudgements(judgements: readonly DaJudgement[], scoredSystems: readonly string[]): AlignedJudgements {
  const known = new Set(scoredSystems);
  const segments: AlignedJudgements['segments'] = [];
  const humanBySystem = new Map<string, number[]>();
  for (const j of judgements) {
    const systems = j.systems.filter((s) => known.has(s));
    if (systems.length === 0) continue;
    segments.push({ systems, sid: j.sid, human: j.human });
    for (const s of systems) {
      let list = humanBySystem.get(s);
      if (!list) humanBySystem.set(s, (list = []));
      list.push(j.human);
    }
  }
  const systems = [...humanBySystem.keys()].sort();
  const systemHuman = systems.map((s) => {
    const l = humanBySystem.get(s) as number[];
    return l.reduce((a, b) => a + b, 0) / l.length;
  });
  return { segments, systems, systemHuman };
}

/**
 * Segment-level Pearson and Kendall τ-b between sentence scores and DA judgements, and
 * system-level Pearson between corpus scores and each system's mean DA (WMT's protocol),
 * over {@link alignJudgements}. A joined judgement is scored as the mean of the listed
 * systems' (identical) sentence scores. Judgements of unscored systems are skipped.
 */
export function metaEvaluate(input: MetaEvaluationInput): MetaEvaluation {
  const sign = input.higherIsBetter ? 1 : -1;
  const aligned = alignJudgements(input.judgements, Object.keys(input.systemScores));
  const segMetric: number[] = [];
  const segHuman: number[] = [];
  for (const seg of aligned.segments) {
    const scores = seg.systems.map((s) => input.segmentScore(s, seg.sid)).filter((v): v is number => v !== undefined);
    if (scores.length === 0) continue;
    segMetric.push((sign * scores.reduce((a, b) => a + b, 0)) / scores.length);
    segHuman.push(seg.human);
  }
  const sysMetric = aligned.systems.map((s) => sign * (input.systemScores[s] ?? NaN)); // as before the flag: a missing score is NaN
  return {
    segment: { pearson: pearson(segMetric, segHuman), kendallTauB: kendallTauB(segMetric, segHuman), n: segMetric.length },
    system: { pearson: pearson(sysMetric, aligned.systemHuman), n: aligned.systems.length, systems: aligned.systems },
  };
}

/** Assembles a metric's report card from a preference report and/or a meta-evaluation. */
export function reportCard(args: {
  metric: string;
  signature: string;
  higherIsBetter: boolean;
  robustness?: { suite: string; mode: string; report: PreferenceReport };
  humanCorrelation?: MetaEvaluation;
}): ReportCard {
  const r = args.robustness;
  return {
    metric: args.metric,
    signature: args.signature,
    higherIsBetter: args.higherIsBetter,
    robustness: r
      ? {
          suite: r.suite,
          mode: r.mode,
          overall: r.report.overall,
          phenomena: Object.fromEntries(
            Object.entries(r.report.phenomena).map(([k, v]) => [k, { accuracy: v.accuracy, n: v.n }]),
          ),
        }
      : null,
    humanCorrelation: args.humanCorrelation ?? null,
  };
}
