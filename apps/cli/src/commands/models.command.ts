import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HF_ENDPOINT, fetchModel, listModels, readManifest } from '@podium/nli';
import { CliError } from '../cli-error';
import { checkModel } from './models-check';
import type { CliCommand } from '../command';

const USAGE = `usage: podium models list [--models-dir DIR]
       podium models fetch NAME [--endpoint URL] [--models-dir DIR]
       podium models check NAME [--data sick] [--split TEST|TRAIN|TRIAL|all] [--limit N] [--batch-size N] [--models-dir DIR]

  list                 every model of models/manifest.json: present, verified (sha256 checked)
  fetch NAME           download NAME into <models-dir>/NAME/: resumable (HTTP Range), each file's
                       sha256 checked against the manifest or manifest.lock.json (trust on first
                       fetch, then recorded), moved into place only when all files verify
  check NAME           run NAME over a labelled NLI set (default SICK's TEST split, 4,906 pairs;
                       fetched from upstream or $PODIUM_DATA_MIRROR) and print accuracy and the
                       confusion matrix (gold rows × predicted columns; also on stderr); flags a
                       config.json label order the matrix contradicts (labelOrder.warning) and
                       says which order the data supports
  --data NAME          a data set of the registry with labelled NLI pairs (default sick)
  --split S            the set's split, or all (default TEST)
  --limit N            only the first N pairs of the split
  --batch-size N       pairs per onnxruntime run (default 32)
  --endpoint URL       model hub (default $PODIUM_HF_ENDPOINT, else ${DEFAULT_HF_ENDPOINT});
                       files come from URL/<repo>/resolve/<revision>/<path>; $HF_TOKEN is sent if set
  --models-dir DIR     folder with manifest.json (default $PODIUM_MODELS_DIR, else the repository's models/)`;

/** The models folder: $PODIUM_MODELS_DIR, else the repository's `models/`. */
export function defaultModelsDir(): string {
  return resolve(process.env['PODIUM_MODELS_DIR'] ?? join(__dirname, '..', '..', '..', '..', 'models'));
}

/** Refuses a model the manifest does not list, naming those it does (fetch and check). */
function requireKnownModel(manifestPath: string, name: string): void {
  let manifest;
  try {
    manifest = readManifest(manifestPath);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!manifest.models[name]) throw new CliError(`unknown model '${name}'; known: ${Object.keys(manifest.models).join(', ')}`);
}

export const modelsCommand: CliCommand = {
  name: 'models',
  summary: 'list, fetch or check NLI models (models/manifest.json)',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          endpoint: { type: 'string' },
          'models-dir': { type: 'string' },
          data: { type: 'string' },
          split: { type: 'string' },
          limit: { type: 'string' },
          'batch-size': { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const { values, positionals } = parsed;
    const modelsDir = resolve(values['models-dir'] ?? defaultModelsDir());
    const manifestPath = join(modelsDir, 'manifest.json');
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new CliError(`unexpected argument '${extra[0]}'`);
    if (action === 'list') {
      if (name) throw new CliError(`'models list' takes no model name`);
      try {
        return { modelsDir, models: await listModels(modelsDir, manifestPath) };
      } catch (err) {
        throw new CliError((err as Error).message);
      }
    }
    if (action === 'fetch') {
      if (!name) throw new CliError('usage: podium models fetch NAME');
      requireKnownModel(manifestPath, name);
      const endpoint = values.endpoint ?? process.env['PODIUM_HF_ENDPOINT'] ?? DEFAULT_HF_ENDPOINT;
      try {
        return await fetchModel(name, {
          modelsDir,
          manifestPath,
          endpoint,
          token: process.env['HF_TOKEN'],
          log: (m) => process.stderr.write(`podium models: ${m}\n`),
        });
      } catch (err) {
        throw new CliError(`fetch ${name} from ${endpoint} failed: ${(err as Error).message}`);
      }
    }
    if (action === 'check') {
      if (!name) throw new CliError('usage: podium models check NAME');
      requireKnownModel(manifestPath, name);
      const positive = (flag: string, v: string | undefined): number | undefined => {
        if (v === undefined) return undefined;
        if (!/^[1-9]\d*$/.test(v)) throw new CliError(`--${flag} must be a positive integer, got '${v}'`);
        return Number(v);
      };
      return checkModel(name, {
        modelsDir,
        manifestPath,
        data: values.data ?? 'sick',
        split: values.split ?? 'TEST',
        limit: positive('limit', values.limit),
        batchSize: positive('batch-size', values['batch-size']) ?? 32,
        log: (m) => process.stderr.write(`${m}\n`),
      });
    }
    throw new CliError(`expected 'list', 'fetch NAME' or 'check NAME'; got '${action ?? ''}' (see podium models --help)`);
  },
};
