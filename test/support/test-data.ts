/**
 * Data sets for tests: fetched through the registry from the offline mirror into a cache
 * folder of this test process. Tests are not the product: they default PODIUM_DATA_MIRROR to
 * `<repo>/../shared/data/mirror` (where CI keeps it) when it is unset; the product never does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DaJudgement, type DataOptions, fetchDataset, getDataset, loadWmtTestSet, parseDataMirror, suiteFile, type WmtTestSet } from '@podium/datasets';
import type { TaskRepository } from '@podium/db';
import { defined } from './defined';

const repoRoot = path.resolve(__dirname, '..', '..');

/** The mirror tests read: $PODIUM_DATA_MIRROR, else `<repo>/../shared/data/mirror`. */
export const TEST_DATA_MIRROR = process.env['PODIUM_DATA_MIRROR']?.trim() || path.resolve(repoRoot, '..', 'shared', 'data', 'mirror');

let cacheDir: string | undefined;

/** One throw-away cache folder per test process (removed at exit). */
export function testCacheDir(): string {
  if (!cacheDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-test-cache-'));
    cacheDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return cacheDir;
}

/** Options that fetch from the test mirror into this process's cache. */
export function testDataOptions(): DataOptions {
  return { source: parseDataMirror(TEST_DATA_MIRROR), cacheDir: testCacheDir() };
}

/** The cached files of a WMT data set: source, reference, DA file and each system's output. */
export async function wmtFiles(name: string): Promise<{ source: string; reference: string; human: string | null; systems: { name: string; file: string }[] }> {
  const fetched = await fetchDataset(name, testDataOptions());
  const spec = defined(getDataset(name).testSet);
  const at = (p: string) => defined(fetched.files.find((f) => f.path === p)).localPath;
  return {
    source: at(spec.source),
    reference: at(spec.reference),
    human: spec.human ? at(spec.human.file) : null,
    systems: Object.entries(spec.systems)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([n, p]) => ({ name: n, file: at(p) })),
  };
}

/** The text of one upstream file (`path` as the registry names it) of data set `dataset`, fetched from the mirror. */
export async function upstreamText(dataset: string, file: string): Promise<string> {
  const fetched = await fetchDataset(dataset, testDataOptions());
  return readFileSync(defined(fetched.files.find((f) => f.path === file), `${dataset} has no file ${file}`).localPath, 'utf8');
}

/** A text file's lines (no trailing empty line). */
export const fileLines = (file: string): string[] => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');

/**
 * Stores the DA-judged segments of a WMT data set (`wmt`, from `wmtFiles`) as phase `phaseId`'s
 * test set 'newstest2017-da', with each system's human score; returns the judged segment ids
 * (ascending), the reference lines and the stored instances.
 */
export async function uploadDaTestSet(tasks: TaskRepository, phaseId: string, wmt: { source: string; reference: string }, da: readonly DaJudgement[]) {
  const sids = [...new Set(da.map((j) => j.sid))].sort((a, b) => a - b);
  const source = fileLines(wmt.source);
  const reference = fileLines(wmt.reference);
  await tasks.uploadTestSet(
    phaseId,
    'newstest2017-da',
    sids.map((sid) => ({ externalId: String(sid), source: defined(source[sid - 1]), references: [defined(reference[sid - 1])] })),
    da.flatMap((j) => j.systems.map((systemName) => ({ externalId: String(j.sid), systemName, score: j.human }))),
  );
  const instances = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phaseId)).testSetId));
  return { sids, reference, instances };
}

/** A WMT test set built from the mirror (as the demo seed builds it). */
export function wmtTestSet(name: string): Promise<WmtTestSet> {
  return loadWmtTestSet(name, testDataOptions());
}

/** The cached CSV of a built-in suite (`builtin:wmt20-de`). */
export function suiteCsvPath(id: string): Promise<string> {
  return suiteFile(id, testDataOptions());
}

/**
 * Points code that reads the environment (the CLI, the worker, the seed in-process) at the test
 * mirror and this process's cache.
 */
export function useTestDataEnv(): void {
  process.env['PODIUM_DATA_MIRROR'] = TEST_DATA_MIRROR;
  process.env['PODIUM_CACHE'] = testCacheDir();
}

/** Where the cache holds an upstream MENLI file (`experiments/…`). */
export function cachedMenliPath(upstreamPath: string): string {
  return path.join(testCacheDir(), 'datasets', 'cyr19', 'MENLI', '911238d470288125d35cc950f69411bc619a2c4b', ...upstreamPath.split('/'));
}
