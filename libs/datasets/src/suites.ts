import { type DataOptions, fetchDatasetEntry } from './fetch-dataset';
import { getDataset } from './registry';

/**
 * The verified, cached file of a built-in robustness suite (`builtin:xpaws-de`), fetched on
 * first use.
 * @throws UnknownDatasetError for an id no data set holds; DataFetchError when it cannot be fetched.
 */
export async function suiteFile(suiteId: string, options: DataOptions = {}): Promise<string> {
  const d = getDataset(suiteId);
  const suite = d.suite;
  if (!suite || suite.id !== suiteId) throw new Error(`'${suiteId}' is not a built-in suite id (a suite's data set is named ${d.name}; use ${d.suite?.id ?? 'its builtin: id'})`);
  const fetched = await fetchDatasetEntry(d, options);
  const file = fetched.files.find((f) => f.path === suite.file);
  if (!file) throw new Error(`data set ${d.name} does not list the suite file ${suite.file}`);
  return file.localPath;
}
