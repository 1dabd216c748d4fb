import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { describeFetchError, downloadResumable, HttpStatusError } from './download';
import {
  cachedFilePath,
  type DataSource,
  dataSourceFromEnv,
  datasetsCacheDir,
  defaultCacheDir,
  describeSource,
  sourceLocation,
  upstreamKey,
} from './locations';
import { type Dataset, type DatasetFileSpec, type DatasetUpstream, getDataset } from './registry';

/** Where to cache and where to fetch from; each defaults from the environment. */
export interface DataOptions {
  /** Default {@link defaultCacheDir} (`$PODIUM_CACHE`, …). */
  cacheDir?: string;
  /** Default {@link dataSourceFromEnv} (`$PODIUM_DATA_MIRROR`, else upstream). */
  source?: DataSource;
  /** One line per notable event (resume, retry, pin). */
  log?: (message: string) => void;
  /** Attempts per file over HTTP; each resumes the last one's part file. Default 3. */
  maxAttempts?: number;
  /** See {@link downloadResumable}. Default 30 s. */
  idleTimeoutMs?: number;
}

/** A data set file that could not be fetched or verified; the message is one line. */
export class DataFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFetchError';
  }
}

/** A file whose bytes do not match the recorded size or sha256; nothing was kept. */
export class ChecksumMismatchError extends DataFetchError {
  constructor(message: string) {
    super(message);
    this.name = 'ChecksumMismatchError';
  }
}

/** One verified file in the cache. */
export interface FetchedFile {
  path: string;
  localPath: string;
  bytes: number;
  sha256: string;
  /** false: it was already in the cache (and verified again). */
  downloaded: boolean;
  /** The registry has no checksum for it: verified against the pin recorded on first fetch. */
  pinned: boolean;
}

/** What {@link fetchDataset} did. */
export interface FetchedDataset {
  name: string;
  /** `<cacheDir>/datasets/<repo>/<commit>`: the upstream layout. */
  root: string;
  files: FetchedFile[];
  /** Bytes transferred (or copied from a mirror folder) by this call. */
  downloadedBytes: number;
}

const pinsSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/), pinnedAt: z.string(), from: z.string() })),
});
type Pins = z.infer<typeof pinsSchema>;

/** `<cacheDir>/datasets/pins.json`: checksums trusted on the first fetch of files the registry cannot pin yet. */
export function pinsPath(cacheDir: string): string {
  return join(datasetsCacheDir(cacheDir), 'pins.json');
}

/** The pins of a cache folder; a missing file is an empty one. */
export function readPins(cacheDir: string): Pins {
  const path = pinsPath(cacheDir);
  if (!existsSync(path)) return { version: 1, files: {} };
  const parsed = pinsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new DataFetchError(`invalid pin file ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function writePins(cacheDir: string, pins: Pins): void {
  const path = pinsPath(cacheDir);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(pins, null, 2) + '\n');
  renameSync(tmp, path);
}

/** sha256 (hex) of a file, streamed so multi-gigabyte files do not fill memory (@podium/nli uses this one too). */
export function sha256File(path: string): Promise<string> {
  return new Promise((res, rej) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', rej)
      .on('end', () => res(hash.digest('hex')));
  });
}

function resolveOptions(options: DataOptions) {
  return {
    cacheDir: options.cacheDir ?? defaultCacheDir(),
    source: options.source ?? dataSourceFromEnv(),
    log: options.log ?? (() => undefined),
    maxAttempts: options.maxAttempts ?? 3,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
  };
}

/** The line that tells a user without network how to get the data. */
export const MIRROR_HINT =
  'without network access, set PODIUM_DATA_MIRROR to a folder or http(s) URL laid out like upstream (<repo>/<commit>/<path>) and run again';

function expectedOf(upstream: DatasetUpstream, file: DatasetFileSpec, pins: Pins): { bytes: number; sha256: string; pinned: boolean } | null {
  if (file.sha256 !== null && file.bytes !== null) return { bytes: file.bytes, sha256: file.sha256, pinned: false };
  const pin = pins.files[upstreamKey(upstream, file.path)];
  return pin ? { bytes: pin.bytes, sha256: pin.sha256, pinned: true } : null;
}

/** Fetches of this process in flight, by cache path: concurrent callers share one. */
const inFlight = new Map<string, Promise<FetchedFile>>();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Holds `<target>.lock` (its holder's pid inside) while `work` runs, so that two processes
 * sharing a cache (several workers) never write one part file at once. A lock whose process
 * is gone is taken over; a live one is waited for.
 */
async function withFileLock<T>(target: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number((existsSync(lock) ? readFileSync(lock, 'utf8') : '').trim());
      if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new DataFetchError(`${target} is being fetched by process ${holder || '?'} (lock ${lock}); try again later`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function fetchFile(upstream: DatasetUpstream, file: DatasetFileSpec, o: ReturnType<typeof resolveOptions>): Promise<FetchedFile> {
  const target = cachedFilePath(o.cacheDir, upstream, file.path);
  const running = inFlight.get(target);
  if (running) return running;
  mkdirSync(dirname(target), { recursive: true });
  const waitMs = o.idleTimeoutMs * o.maxAttempts * 4;
  const p = withFileLock(target, waitMs, () => fetchFileLocked(upstream, file, o)).finally(() => inFlight.delete(target));
  inFlight.set(target, p);
  return p;
}

async function fetchFileLocked(
  upstream: DatasetUpstream,
  file: DatasetFileSpec,
  o: ReturnType<typeof resolveOptions>,
): Promise<FetchedFile> {
  const pins = readPins(o.cacheDir);
  const expected = expectedOf(upstream, file, pins);
  const target = cachedFilePath(o.cacheDir, upstream, file.path);
  // A file in the cache got there only through the verified rename below; verify it again,
  // since a cache can be edited or damaged.
  if (existsSync(target) && expected) {
    if (statSync(target).size === expected.bytes && (await sha256File(target)) === expected.sha256) {
      return { path: file.path, localPath: target, bytes: expected.bytes, sha256: expected.sha256, downloaded: false, pinned: expected.pinned };
    }
    o.log(`${target} does not match its checksum; fetching it again`);
    rmSync(target, { force: true });
  }
  mkdirSync(dirname(target), { recursive: true });
  const part = `${target}.part`;
  const from = sourceLocation(o.source, upstream, file.path);
  let resumed = false;
  if (o.source.kind === 'directory') {
    if (!existsSync(o.source.dir)) throw new DataFetchError(`PODIUM_DATA_MIRROR names ${o.source.dir}, which does not exist`);
    if (!existsSync(from)) throw new DataFetchError(`${file.path} is not in ${describeSource(o.source)} (looked for ${from})`);
    copyFileSync(from, part);
  } else {
    if (expected && existsSync(part) && statSync(part).size > expected.bytes) rmSync(part); // cannot be a prefix
    resumed = existsSync(part) && statSync(part).size > 0;
    let lastError: unknown;
    for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
      if (expected && existsSync(part) && statSync(part).size === expected.bytes) {
        lastError = undefined;
        break; // whole already; verify below
      }
      try {
        await downloadResumable(from, part, { idleTimeoutMs: o.idleTimeoutMs, log: o.log });
        lastError = undefined;
        break;
      } catch (err) {
        lastError = err;
        // Retries are for transfers that broke off; a refused connection or an unknown host,
        // like a 404, will not change a moment later.
        if (err instanceof HttpStatusError && err.status !== 408 && err.status !== 429 && err.status < 500) break;
        if (/\((ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)\)$/.test(describeFetchError(err))) break;
        if (attempt < o.maxAttempts) o.log(`${from}: attempt ${attempt} of ${o.maxAttempts} failed: ${describeFetchError(err)}`);
      }
    }
    if (lastError !== undefined) {
      const hint = o.source.kind === 'upstream' ? `; ${MIRROR_HINT}` : '';
      throw new DataFetchError(`cannot fetch ${from}: ${describeFetchError(lastError)}${hint}`);
    }
  }
  const bytes = statSync(part).size;
  const sha256 = await sha256File(part);
  if (expected && (bytes !== expected.bytes || sha256 !== expected.sha256)) {
    rmSync(part, { force: true });
    if (resumed) {
      // The bytes an earlier run left may not be a prefix of this file: once more from byte 0.
      o.log(`${from}: the resumed download does not match its checksum; starting over`);
      return fetchFileLocked(upstream, file, o);
    }
    throw new ChecksumMismatchError(
      `${from}: got ${bytes} bytes with sha256 ${sha256}, expected ${expected.bytes} bytes with sha256 ${expected.sha256}${expected.pinned ? ' (pinned on first fetch)' : ''}; download discarded`,
    );
  }
  if (!expected) {
    // Trust on first fetch: the registry cannot pin this file yet; later fetches must match.
    const latest = readPins(o.cacheDir);
    latest.files[upstreamKey(upstream, file.path)] = { bytes, sha256, pinnedAt: new Date().toISOString(), from };
    writePins(o.cacheDir, latest);
    o.log(`${file.path}: no checksum in the registry; pinned on first fetch as ${bytes} bytes, sha256 ${sha256} (${pinsPath(o.cacheDir)})`);
  }
  renameSync(part, target);
  return { path: file.path, localPath: target, bytes, sha256, downloaded: true, pinned: !expected || expected.pinned };
}

/**
 * Makes every file of a data set (by name or suite id) present and verified in the cache:
 * each file is fetched from the source (upstream, or `PODIUM_DATA_MIRROR`) into
 * `<file>.part` — over HTTP resumed with a Range request after an interruption — checked
 * against its recorded size and sha256, and only then renamed to its final name, so a partial
 * or corrupt download never looks complete. Files the registry has no checksum for are pinned
 * on first fetch (`pins.json` in the cache) and verified against that pin afterwards.
 *
 * @example const d = await fetchDataset('wmt17-de-en'); d.files[0].localPath
 * @throws UnknownDatasetError, DataFetchError (one line, with how to set a mirror), ChecksumMismatchError
 */
export async function fetchDataset(nameOrSuiteId: string, options: DataOptions = {}): Promise<FetchedDataset> {
  const d = getDataset(nameOrSuiteId);
  return fetchDatasetEntry(d, options);
}

/** {@link fetchDataset} for an entry already looked up (or one built by a test). */
export async function fetchDatasetEntry(d: Dataset, options: DataOptions = {}): Promise<FetchedDataset> {
  const o = resolveOptions(options);
  const files: FetchedFile[] = [];
  for (const f of d.files) files.push(await fetchFile(d.upstream, f, o));
  return {
    name: d.name,
    root: cachedFilePath(o.cacheDir, d.upstream, ''),
    files,
    downloadedBytes: files.filter((f) => f.downloaded).reduce((a, f) => a + f.bytes, 0),
  };
}

/** Whether a data set is in the cache, from file sizes alone (no hashing). */
export interface DatasetCacheStatus {
  name: string;
  cached: boolean;
  missing: string[];
  /** Files with no checksum in the registry nor a pin yet: verified on first download. */
  unverified: string[];
}

/** Cache status of a data set: every file present with its recorded size. */
export function datasetCacheStatus(d: Dataset, options: Pick<DataOptions, 'cacheDir'> = {}): DatasetCacheStatus {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const pins = readPins(cacheDir);
  const missing: string[] = [];
  const unverified: string[] = [];
  for (const f of d.files) {
    const expected = expectedOf(d.upstream, f, pins);
    if (!expected) unverified.push(f.path);
    const path = cachedFilePath(cacheDir, d.upstream, f.path);
    if (!existsSync(path) || (expected && statSync(path).size !== expected.bytes)) missing.push(f.path);
  }
  return { name: d.name, cached: missing.length === 0, missing, unverified };
}

/** The cached path of one of a data set's files (which {@link fetchDataset} makes present). */
export function datasetFilePath(d: Dataset, path: string, options: Pick<DataOptions, 'cacheDir'> = {}): string {
  if (!d.files.some((f) => f.path === path)) throw new Error(`${path} is not a file of data set ${d.name}`);
  return cachedFilePath(options.cacheDir ?? defaultCacheDir(), d.upstream, path);
}
