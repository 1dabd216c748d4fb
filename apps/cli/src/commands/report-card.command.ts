import { basename } from 'node:path';
import { isMetricName, METRIC_NAMES, metricPlugin, score } from '@podium/metrics';
import { defaultNliOptions, loadNliModel, scoreNli } from '@podium/nli';
import type { NliModel } from '@podium/nli';
import {
  alignJudgements,
  menliPreferenceRows,
  metaEvaluate,
  parseMenliCsv,
  preferenceReport,
  reportCard,
  tradeoffCurve,
} from '@podium/robustness';
import type { PreferenceRow } from '@podium/robustness';
import { parseDaSegLevel, type DaJudgement } from '@podium/datasets';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import type { CliCommand } from '../command';
import { readLines, readText } from '../io';
import { resolveSuitePath } from './data-options';

/** Sentence and corpus scores of a metric over line-aligned hypotheses and references. */
interface Scored {
  instances: number[];
  corpus: number;
  signature: string;
  higherIsBetter: boolean;
}

type StreamScorer = (hyps: readonly string[], refStreams: readonly (readonly string[])[]) => Promise<Scored>;

function streamScorer(metric: string, nli: NliModel | undefined, encoderModel?: string): StreamScorer {
  if (metricPlugin(metric)?.capability === 'embedding') {
    // Lazily: the embedding branch pulls in onnxruntime; one encoder for every system.
    let loaded: Promise<import('./score-embedding').CliEmbeddingScorer> | undefined;
    return async (hyps, refStreams) => {
      loaded ??= import('./score-embedding').then((m) => m.cliEmbeddingScorer(metric, encoderModel));
      return (await loaded).score(hyps, hyps.map((_, i) => refStreams.map((r) => r[i] ?? '')));
    };
  }
  if (metricPlugin(metric)?.capability === 'model') {
    const model = nli as NliModel;
    return async (hyps, refStreams) => {
      const s = await scoreNli(model, { hyps, refStreams }, defaultNliOptions('mt', 'ref'));
      return { instances: s.instances, corpus: s.corpus, signature: s.signature, higherIsBetter: s.higherIsBetter };
    };
  }
  if (!isMetricName(metric)) throw new CliError(`unknown metric '${metric}'`);
  return async (hyps, refStreams) => {
    const s = score(metric, {}, hyps, refStreams);
    return { instances: s.instances, corpus: s.corpus, signature: s.signature, higherIsBetter: s.higherIsBetter };
  };
}

/** System name of an output file: its base name without the last extension (`KIT.4951.en` → `KIT.4951`), or the system of a WMT file name (`newstest2017.KIT.4951.de-en` → `KIT.4951`). */
/** The scores of `system`: every system the DA judgements align with was scored. */
function scoredOf(scores: Map<string, Scored>, system: string): Scored {
  const s = scores.get(system);
  if (!s) throw new Error(`no scores for system ${system}`);
  return s;
}

/** The score of segment `sid` (1-based; judgements past the references are refused above). */
function segmentScore(scored: Scored, sid: number): number {
  const v = scored.instances[sid - 1];
  if (v === undefined) throw new Error(`no score for segment ${sid}`);
  return v;
}

export function systemNameOf(file: string): string {
  const b = basename(file);
  // WMT's own file names, as cached by `podium data`: newstest2017.<system>.<pair>
  const wmt = /^newstest\d{4}\.(.+)\.[a-z]{2}-[a-z]{2}$/.exec(b);
  if (wmt?.[1]) return wmt[1];
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

const USAGE = `usage: podium report-card --metric NAME --refs FILE --system FILE... --human DA.csv [options]

A metric's report card: segment-level Pearson and Kendall tau-b and system-level Pearson
with human DA scores, next to its accuracy on an adversarial suite. With --metric nli and
--combine-with METRIC, also the MENLI trade-off curve of w·NLI + (1−w)·METRIC.

  --metric NAME          ${METRIC_NAMES.join(', ')}, nli (needs --nli-model)
  --refs FILE            reference file (repeat for more references)
  --system FILE          a system's output, named by its file name without extension (repeat)
  --human FILE           WMT segment-level DA scores: LP DATA SYSTEM SID HUMAN
  --lp PAIR              language pair to keep when the DA file holds several
  --suite SUITE          adversarial suite (default builtin:wmt20-de; 'none' to skip)
  --nli-model DIR        NLI model folder
  --model DIR            text encoder for embedding metrics (--metric bertscore; default models/test-encoder-tiny)
  --combine-with NAME    classical metric to combine with NLI (with --metric nli)
  --weights LIST         NLI weights for the curve (default 0,0.1,…,1)
  --seed N, --resamples N  bootstrap of the suite accuracy (default 12345, 1000)`;

/** `podium report-card`: robustness and human correlation of one metric. */
export const reportCardCommand: CliCommand = {
  name: 'report-card',
  summary: "a metric's robustness and correlation with human scores",
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const values = parseFlags(argv, {
      metric: { type: 'string' },
      refs: { type: 'string', multiple: true },
      system: { type: 'string', multiple: true },
      human: { type: 'string' },
      lp: { type: 'string' },
      suite: { type: 'string', default: 'builtin:wmt20-de' },
      'nli-model': { type: 'string' },
      model: { type: 'string' },
      'combine-with': { type: 'string' },
      weights: { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
    });
    const metric = values.metric;
    if (!metric) throw new CliError('--metric is required');
    if (!values.refs?.length) throw new CliError('--refs is required');
    if (!values.system?.length) throw new CliError('at least one --system is required');
    if (!values.human) throw new CliError('--human is required');
    const combineWith = values['combine-with'];
    const isModel = metricPlugin(metric)?.capability === 'model';
    if (combineWith && !isModel) throw new CliError('--combine-with needs --metric nli');
    if (combineWith && !isMetricName(combineWith)) throw new CliError(`unknown metric '${combineWith}' for --combine-with`);
    if (isModel && !values['nli-model']) throw new CliError('--metric nli needs --nli-model DIR');
    const seed = values.seed === undefined ? 12345 : Number(values.seed);
    const resamples = values.resamples === undefined ? 1000 : Number(values.resamples);
    if (!Number.isInteger(seed) || seed < 0) throw new CliError(`--seed must be a non-negative integer`);
    if (!Number.isInteger(resamples) || resamples < 1) throw new CliError(`--resamples must be a positive integer`);
    const weights = values.weights?.split(',').map(Number);
    if (weights && weights.some((w) => !(w >= 0 && w <= 1))) throw new CliError('--weights must be numbers in [0, 1]');

    let nliModel: NliModel | undefined;
    if (values['nli-model']) {
      try {
        nliModel = await loadNliModel(values['nli-model'], { log: () => undefined });
      } catch (err) {
        throw new CliError((err as Error).message);
      }
    }

    const refStreams = values.refs.map((f, k) => readLines(f, `reference ${k + 1}`));
    const segments = refStreams[0]?.length ?? 0; // --refs is required above
    const outputs = new Map<string, string[]>();
    for (const file of values.system) {
      const name = systemNameOf(file);
      if (outputs.has(name)) throw new CliError(`two --system files are named ${name}`);
      const lines = readLines(file, `system ${name}`);
      if (lines.length !== segments) {
        throw new CliError(`system ${name} has ${lines.length} lines, the references ${segments}`);
      }
      outputs.set(name, lines);
    }
    let judgements: DaJudgement[];
    try {
      judgements = parseDaSegLevel(readText(values.human, 'human scores'));
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`human scores ${values.human}: ${(err as Error).message}`);
    }
    const pairs = [...new Set(judgements.map((j) => j.lp))];
    if (values.lp) judgements = judgements.filter((j) => j.lp === values.lp);
    else if (pairs.length > 1) throw new CliError(`the DA file holds ${pairs.join(', ')}: choose one with --lp`);
    const outOfRange = judgements.find((j) => j.sid > segments);
    if (outOfRange) throw new CliError(`DA judgement for segment ${outOfRange.sid}, but the references have ${segments} lines`);

    // Score every system once: sentence scores for segment level, corpus scores for system level.
    const scoreSystems = async (name: string): Promise<Map<string, Scored>> => {
      const scorer = streamScorer(name, nliModel, values.model);
      const out = new Map<string, Scored>();
      for (const [system, hyps] of outputs) out.set(system, await scorer(hyps, refStreams));
      return out;
    };
    const primary = await scoreSystems(metric);
    const [first] = primary.values(); // at least one --system is required above
    if (!first) throw new CliError('at least one --system is required');
    const humanCorrelation = metaEvaluate({
      judgements,
      segmentScore: (s, sid) => primary.get(s)?.instances[sid - 1],
      systemScores: Object.fromEntries([...primary].map(([s, v]) => [s, v.corpus])),
      higherIsBetter: first.higherIsBetter,
    });
    const unjudged = judgements.filter((j) => !j.systems.some((s) => outputs.has(s))).length;

    let robustness;
    let suiteRows: PreferenceRow[] | undefined;
    const suiteScores = async (name: string, rows: PreferenceRow[]): Promise<{ good: number[]; bad: number[]; higherIsBetter: boolean; signature: string }> => {
      const scorer = streamScorer(name, nliModel, values.model);
      const anchors = [rows.map((r) => r.anchor)];
      const good = await scorer(rows.map((r) => r.good), anchors);
      const bad = await scorer(rows.map((r) => r.bad), anchors);
      return { good: good.instances, bad: bad.instances, higherIsBetter: good.higherIsBetter, signature: good.signature };
    };
    let primarySuite;
    if (values.suite !== 'none') {
      const path = await resolveSuitePath(values.suite);
      try {
        suiteRows = menliPreferenceRows(parseMenliCsv(readText(path, 'suite')), 'ref');
      } catch (err) {
        if (err instanceof CliError) throw err;
        throw new CliError(`suite ${path}: ${(err as Error).message}`);
      }
      primarySuite = await suiteScores(metric, suiteRows);
      const report = preferenceReport(suiteRows, primarySuite.good, primarySuite.bad, primarySuite, { seed, resamples });
      robustness = { suite: values.suite, mode: 'ref', report };
    }

    const card = reportCard({ metric, signature: first.signature, higherIsBetter: first.higherIsBetter, robustness, humanCorrelation });
    if (!combineWith) return { ...card, skippedJudgements: unjudged };

    const other = await scoreSystems(combineWith);
    const aligned = alignJudgements(judgements, [...outputs.keys()]);
    const segOf = (m: Map<string, Scored>): number[] =>
      aligned.segments.map((seg) => seg.systems.reduce((a, s) => a + segmentScore(scoredOf(m, s), seg.sid), 0) / seg.systems.length);
    const [otherFirst] = other.values();
    if (!otherFirst) throw new CliError('at least one --system is required');
    const judged = {
      nli: { segment: segOf(primary), system: aligned.systems.map((s) => scoredOf(primary, s).corpus), higherIsBetter: first.higherIsBetter },
      metric: {
        segment: segOf(other),
        system: aligned.systems.map((s) => scoredOf(other, s).corpus),
        higherIsBetter: otherFirst.higherIsBetter,
      },
      humanSegment: aligned.segments.map((s) => s.human),
      humanSystem: aligned.systemHuman,
    };
    let tradeoff;
    if (suiteRows && primarySuite) {
      const otherSuite = await suiteScores(combineWith, suiteRows);
      tradeoff = tradeoffCurve({ rows: suiteRows, nli: primarySuite, metric: otherSuite, weights, judged });
    }
    return {
      ...card,
      skippedJudgements: unjudged,
      combinedWith: { metric: combineWith, signature: otherFirst.signature, tradeoff: tradeoff ?? null },
    };
  },
};
