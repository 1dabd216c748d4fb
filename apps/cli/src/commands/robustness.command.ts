import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isMetricName, METRIC_NAMES, metricPlugin, score } from '@podium/metrics';
import type { MetricName } from '@podium/metrics';
import { defaultNliOptions, loadNliModel, scoreNli } from '@podium/nli';
import {
  MenliSuiteError,
  menliPreferenceRows,
  parseMenliCsv,
  runPreferenceTest,
} from '@podium/robustness';
import type { PairScorer, SuiteMode } from '@podium/robustness';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import type { CliCommand } from '../command';
import { readText } from '../io';
import { resolveSuitePath } from './data-options';

export { resolveSuitePath };

/** The repository root: the nearest folder at or above `start` holding nx.json. */
export function findRepoRoot(start: string = __dirname): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json found above ${start}`);
    dir = parent;
  }
}

/** Adapts a classical metric's sentence scores to the preference test's scorer. */
export function classicalScorer(metric: MetricName): PairScorer {
  return async (anchors, hyps) => {
    const s = score(metric, {}, hyps, [anchors]);
    return { values: s.instances, signature: s.sentenceSignature, higherIsBetter: s.higherIsBetter };
  };
}

/** Adapts the NLI metric (MT defaults: formula e, bidirectional) to the preference test's scorer. */
export async function nliScorer(modelDir: string, mode: SuiteMode): Promise<PairScorer> {
  const model = await loadNliModel(modelDir, { log: () => undefined });
  const options = defaultNliOptions('mt', mode);
  return async (anchors, hyps) => {
    const s = await scoreNli(model, mode === 'src' ? { hyps, sources: anchors } : { hyps, refStreams: [anchors] }, options);
    return { values: s.instances, signature: s.signature, higherIsBetter: s.higherIsBetter };
  };
}

const USAGE = `usage: podium robustness --metric NAME --suite builtin:NAME|FILE.csv [options]

Runs the MENLI adversarial preference test: a metric passes a row when it scores the
good candidate strictly better than the bad one against the same anchor (ties fail).

  --metric NAME        ${METRIC_NAMES.join(', ')}, nli
  --suite SUITE        a built-in MENLI suite: builtin:wmt20-de, builtin:xpaws-de,
                       builtin:xpaws-zh, builtin:xpaws-fr, builtin:xpaws-ja (fetched and
                       verified on first use, see podium data), or a CSV with the MENLI columns
                       error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free
  --mode ref|src       ref (default): m(ref, hyp_para) > m(ref, hyp_adv_based)
                       src: m(source, ref) > m(source, hyp_adv_free) (MENLI Eq. 1)
  --nli-model DIR      model folder for --metric nli (e.g. models/test-nli-tiny)
  --model DIR          text encoder for embedding metrics (--metric bertscore; default models/test-encoder-tiny)
  --seed N             bootstrap seed (default 12345)
  --resamples N        bootstrap replicates (default 1000)
  --show-failing       list the failing rows with both scores

stdout: {"metric","signature","suite","mode","overall":{"accuracy","ci","n","passed"},
         "phenomena":{"<error>":{"accuracy","ci","n","passed"}},"bootstrap","failingCount"[,"failing"]}`;

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (flag === '--seed' ? 0 : 1)) throw new CliError(`${flag} must be a ${flag === '--seed' ? 'non-negative' : 'positive'} integer, got '${value}'`);
  return n;
}

/** `podium robustness`: a metric's accuracy on an adversarial preference suite. */
export const robustnessCommand: CliCommand = {
  name: 'robustness',
  summary: 'metric robustness on a MENLI adversarial preference suite',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const values = parseFlags(argv, {
      metric: { type: 'string' },
      suite: { type: 'string' },
      mode: { type: 'string', default: 'ref' },
      'nli-model': { type: 'string' },
      model: { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
      'show-failing': { type: 'boolean', default: false },
    });
    const metric = values.metric;
    if (!metric) throw new CliError('--metric is required');
    if (!values.suite) throw new CliError('--suite is required (builtin:wmt20-de, builtin:xpaws-de, … or a MENLI-format CSV)');
    const mode = values.mode;
    if (mode !== 'ref' && mode !== 'src') throw new CliError(`--mode must be ref or src, got '${mode}'`);
    const seed = positiveInt(values.seed, '--seed', 12345);
    const resamples = positiveInt(values.resamples, '--resamples', 1000);

    let scorer: PairScorer;
    if (metricPlugin(metric)?.capability === 'model') {
      if (!values['nli-model']) throw new CliError('--metric nli needs --nli-model DIR');
      try {
        scorer = await nliScorer(values['nli-model'], mode);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
    } else if (metricPlugin(metric)?.capability === 'embedding') {
      // Lazily: the embedding branch pulls in onnxruntime.
      const { cliEmbeddingScorer } = await import('./score-embedding');
      const embedding = await cliEmbeddingScorer(metric, values.model);
      scorer = async (anchors, hyps) => {
        const s = await embedding.score(hyps, anchors.map((a) => [a]));
        return { values: s.instances, signature: s.signature, higherIsBetter: s.higherIsBetter };
      };
    } else if (isMetricName(metric)) {
      if (values['nli-model']) throw new CliError('--nli-model applies to --metric nli only');
      scorer = classicalScorer(metric);
    } else {
      throw new CliError(`unknown metric '${metric}'`);
    }

    const path = await resolveSuitePath(values.suite);
    let rows;
    try {
      rows = menliPreferenceRows(parseMenliCsv(readText(path, 'suite')), mode);
    } catch (err) {
      if (err instanceof MenliSuiteError) throw new CliError(`suite ${path}: ${err.message}`);
      if (err instanceof CliError) throw err;
      throw new CliError(`suite ${path}: ${(err as Error).message}`);
    }
    const report = await runPreferenceTest(rows, scorer, { seed, resamples });
    return {
      metric,
      signature: report.signature,
      suite: values.suite,
      mode,
      overall: report.overall,
      phenomena: report.phenomena,
      bootstrap: report.bootstrap,
      failingCount: report.failing.length,
      ...(values['show-failing'] ? { failing: report.failing } : {}),
    };
  },
};
