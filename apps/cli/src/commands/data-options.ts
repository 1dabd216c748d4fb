import {
  BUILTIN_SUITES,
  datasetBytes,
  datasetCacheStatus,
  getDataset,
  type DataOptions,
  DataFetchError,
  dataSourceFromEnv,
  defaultCacheDir,
  describeSource,
  parseDataMirror,
  suiteFile,
  UnknownDatasetError,
} from '@podium/datasets';
import { CliError } from '../cli-error';

/** Cache and source for the CLI: --cache / --mirror, else PODIUM_CACHE / PODIUM_DATA_MIRROR. */
export function cliDataOptions(flags: { cache?: string; mirror?: string } = {}): Required<Pick<DataOptions, 'cacheDir' | 'source' | 'log'>> {
  let source;
  try {
    source = flags.mirror !== undefined ? parseDataMirror(flags.mirror) : dataSourceFromEnv();
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  return {
    cacheDir: flags.cache ?? defaultCacheDir(),
    source,
    log: (m) => process.stderr.write(`podium data: ${m}\n`),
  };
}

/** One line on stderr before a download, so the user knows what, how big, from where, to where. */
export function announceFetch(name: string, files: number, bytes: number | null, o: ReturnType<typeof cliDataOptions>): void {
  const size = bytes === null ? 'size known after download' : `${(bytes / 1e6).toFixed(1)} MB`;
  process.stderr.write(`podium data: fetching ${name} (${files} files, ${size}) from ${describeSource(o.source)} into ${o.cacheDir}\n`);
}

/**
 * A robustness suite's file: `builtin:<name>` is fetched (first use) and verified through the
 * dataset registry; any other value is a file path.
 */
export async function resolveSuitePath(suite: string, flags: { cache?: string; mirror?: string } = {}): Promise<string> {
  if (!suite.startsWith('builtin:')) return suite;
  if (!Object.hasOwn(BUILTIN_SUITES, suite)) throw new CliError(`unknown built-in suite '${suite}' (known: ${Object.keys(BUILTIN_SUITES).join(', ')})`);
  const o = cliDataOptions(flags);
  const d = getDataset(suite);
  if (!datasetCacheStatus(d, o).cached) announceFetch(d.name, d.files.length, datasetBytes(d), o);
  try {
    return await suiteFile(suite, o);
  } catch (err) {
    if (err instanceof UnknownDatasetError || err instanceof DataFetchError) throw new CliError(`suite ${suite}: ${err.message}`);
    throw err;
  }
}
