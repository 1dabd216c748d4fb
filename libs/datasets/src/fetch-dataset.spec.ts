import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ChecksumMismatchError, DataFetchError, datasetCacheStatus, fetchDataset, fetchDatasetEntry, readPins } from './fetch-dataset';
import { defaultCacheDir, parseDataMirror, type DataSource } from './locations';
import { type Dataset, parseRegistry, UnknownDatasetError } from './registry';
import { defined } from '../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const COMMIT = 'c0ffee0000000000000000000000000000000001';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A small upstream repository made by the test: three pinned files and one without a checksum. */
function fixture() {
  const bodies: Record<string, Buffer> = {
    LICENSE: Buffer.from('MIT License\n\nCopyright (c) 2022 Someone\n'),
    'sets/a/source.txt': randomBytes(200_000),
    'sets/a/reference.txt': randomBytes(50_000),
    'sets/b/data.csv': Buffer.from('error,id\nadd,1\n'),
  };
  const pinned = (p: string) => ({ path: p, bytes: defined(bodies[p]).length, sha256: sha(defined(bodies[p])) });
  const reg = parseRegistry({
    version: 1,
    demo: 'toy',
    upstreams: { acme: { repo: 'acme/data', commit: COMMIT, homepage: 'https://example.org/acme', licence: 'MIT', copyright: 'Copyright (c) 2022 Someone', licenceFile: 'LICENSE', note: '' } },
    datasets: {
      toy: {
        description: 'toy',
        upstream: 'acme',
        files: [pinned('LICENSE'), pinned('sets/a/source.txt'), pinned('sets/a/reference.txt')],
        testSet: { languagePair: 'de-en', sourceLang: 'de', targetLang: 'en', source: 'sets/a/source.txt', reference: 'sets/a/reference.txt', systems: {}, human: null },
      },
      fresh: { description: 'no checksum yet', upstream: 'acme', files: [pinned('LICENSE'), { path: 'sets/b/data.csv', bytes: null, sha256: null }] },
    },
  });
  const entry = (name: string): Dataset => ({ name, ...defined(reg.datasets[name]), upstream: defined(reg.upstreams['acme']) });
  return { bodies, toy: entry('toy'), fresh: entry('fresh') };
}

interface ServerOptions {
  prefix?: string;
  /** Paths whose next full (non-range) response stops after half the bytes. */
  interrupt?: Set<string>;
  /** Paths served with one byte changed. */
  corrupt?: Set<string>;
  /** Paths whose response sends half, then stalls without closing. */
  stall?: Set<string>;
  /** Answer range requests with the whole file (200), as servers without Range support do. */
  ignoreRange?: boolean;
}

async function startUpstream(bodies: Record<string, Buffer>, opts: ServerOptions = {}) {
  const prefix = opts.prefix ?? '';
  const requests: { path: string; range?: string }[] = [];
  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    const rel = url.startsWith(`${prefix}/acme/data/${COMMIT}/`) ? url.slice(`${prefix}/acme/data/${COMMIT}/`.length) : undefined;
    requests.push({ path: rel ?? url, range: req.headers.range });
    let body = rel !== undefined ? bodies[rel] : undefined;
    if (!body || rel === undefined) return void res.writeHead(404).end('not found');
    if (opts.corrupt?.has(rel)) {
      body = Buffer.from(body);
      body.writeUInt8(body.readUInt8(body.length - 1) ^ 0xff, body.length - 1);
    }
    const range = opts.ignoreRange ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= body.length) return void res.writeHead(416).end();
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
      return void res.end(body.subarray(start));
    }
    res.writeHead(200, { 'content-length': body.length });
    if (opts.interrupt?.has(rel)) {
      opts.interrupt.delete(rel);
      res.write(body.subarray(0, body.length / 2), () => setTimeout(() => res.destroy(), 100));
      return;
    }
    if (opts.stall?.has(rel)) {
      res.write(body.subarray(0, body.length / 2));
      return; // never ends: the client's idle timeout gives up
    }
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}/`;
  return {
    base,
    source: { kind: 'url', base } as DataSource,
    requests,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** Runs `test` against a fresh fixture served by a fresh upstream (`opts`), closed afterwards. */
type UpstreamTest = (ctx: ReturnType<typeof fixture> & { up: Awaited<ReturnType<typeof startUpstream>> }) => Promise<void>;
async function withToyUpstream(...args: [test: UpstreamTest] | [opts: ServerOptions, test: UpstreamTest]): Promise<void> {
  const [opts, test] = args.length === 1 ? [{}, args[0]] : args;
  const f = fixture();
  const up = await startUpstream(f.bodies, opts);
  try {
    await test({ ...f, up });
  } finally {
    await up.close();
  }
}

const temps: string[] = [];
const tempCache = () => {
  const dir = mkdtempSync(join(tmpdir(), 'podium-datasets-spec-'));
  temps.push(dir);
  return dir;
};
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
const cachedAt = (cacheDir: string, p: string) => join(cacheDir, 'datasets', 'acme', 'data', COMMIT, ...p.split('/'));
/** Leaves `<file>.part` holding `bytes` in the cache, as an interrupted earlier run would; returns the file's final path. */
function leavePart(cacheDir: string, p: string, bytes: Buffer): string {
  const target = cachedAt(cacheDir, p);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.part`, bytes);
  return target;
}

/** Every file under a folder, relative, sorted. */
function tree(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? tree(join(dir, e.name), base) : [join(dir, e.name).slice(base.length + 1)]))
    .sort();
}

describe('fetchDataset against a local HTTP server', () => {
  it('downloads every file into the cache in the upstream layout, verified, and reads the cache the second time', async () => {
    await withToyUpstream(async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      const r = await fetchDatasetEntry(toy, { cacheDir, source: up.source });
      expect(r.root).toBe(cachedAt(cacheDir, ''));
      expect(r.downloadedBytes).toBe(defined(bodies['LICENSE']).length + 250_000);
      for (const f of r.files) expect(readFileSync(f.localPath).equals(defined(bodies[f.path]))).toBe(true);
      expect(tree(join(cacheDir, 'datasets'))).toEqual([`acme/data/${COMMIT}/LICENSE`, `acme/data/${COMMIT}/sets/a/reference.txt`, `acme/data/${COMMIT}/sets/a/source.txt`]);
      expect(up.requests.map((q) => q.path)).toEqual(['LICENSE', 'sets/a/source.txt', 'sets/a/reference.txt']);
      expect(datasetCacheStatus(toy, { cacheDir })).toEqual({ name: 'toy', cached: true, missing: [], unverified: [] });

      const again = await fetchDatasetEntry(toy, { cacheDir, source: up.source });
      expect(again.downloadedBytes).toBe(0);
      expect(again.files.every((f) => !f.downloaded)).toBe(true);
      expect(up.requests).toHaveLength(3); // nothing fetched again
    });
  });

  it('resumes from a .part file an earlier run left, with an HTTP Range request', async () => {
    await withToyUpstream(async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      const target = leavePart(cacheDir, 'sets/a/source.txt', defined(bodies['sets/a/source.txt']).subarray(0, 123_456));
      const log: string[] = [];
      await fetchDatasetEntry(toy, { cacheDir, source: up.source, log: (m) => log.push(m) });
      expect(up.requests.find((q) => q.path === 'sets/a/source.txt')).toEqual({ path: 'sets/a/source.txt', range: 'bytes=123456-' });
      expect(readFileSync(target).equals(defined(bodies['sets/a/source.txt']))).toBe(true);
      expect(existsSync(`${target}.part`)).toBe(false);
      expect(log.some((m) => m.includes('at byte 123456'))).toBe(true);
    });
  });

  it('starts over from byte 0 when a resumed download fails its checksum (stale part file)', async () => {
    await withToyUpstream(async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      const target = leavePart(cacheDir, 'sets/a/source.txt', Buffer.alloc(1000, 0x41)); // not a prefix of the file
      const log: string[] = [];
      await fetchDatasetEntry(toy, { cacheDir, source: up.source, log: (m) => log.push(m) });
      expect(up.requests.filter((q) => q.path === 'sets/a/source.txt').map((q) => q.range)).toEqual(['bytes=1000-', undefined]);
      expect(readFileSync(target).equals(defined(bodies['sets/a/source.txt']))).toBe(true);
      expect(log.join('\n')).toMatch(/does not match its checksum; starting over/);
    });
  });

  it('starts the file over when the server ignores the range request', async () => {
    await withToyUpstream({ ignoreRange: true }, async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      const target = leavePart(cacheDir, 'sets/a/source.txt', defined(bodies['sets/a/source.txt']).subarray(0, 1000));
      await fetchDatasetEntry(toy, { cacheDir, source: up.source });
      expect(defined(up.requests.find((q) => q.path === 'sets/a/source.txt')).range).toBe('bytes=1000-');
      expect(readFileSync(target).equals(defined(bodies['sets/a/source.txt']))).toBe(true);
    });
  });

  it('resumes a transfer that dropped mid-file on the next attempt of the same call', async () => {
    await withToyUpstream({ interrupt: new Set(['sets/a/source.txt']) }, async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      await fetchDatasetEntry(toy, { cacheDir, source: up.source });
      const tries = up.requests.filter((q) => q.path === 'sets/a/source.txt');
      expect(tries).toHaveLength(2);
      expect(defined(tries[0]).range).toBeUndefined();
      expect(defined(tries[1]).range).toMatch(/^bytes=\d+-$/);
      expect(Number(defined(/\d+/.exec(defined(defined(tries[1]).range)))[0])).toBeGreaterThan(0);
      expect(readFileSync(cachedAt(cacheDir, 'sets/a/source.txt')).equals(defined(bodies['sets/a/source.txt']))).toBe(true);
    });
  });

  it('rejects a file whose sha256 does not match, keeping neither the file nor its part', async () => {
    await withToyUpstream({ corrupt: new Set(['sets/a/reference.txt']) }, async ({ toy, up }) => {
      const cacheDir = tempCache();
      const err = await fetchDatasetEntry(toy, { cacheDir, source: up.source }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChecksumMismatchError);
      expect((err as Error).message).toMatch(/sets\/a\/reference\.txt: got 50000 bytes with sha256 [0-9a-f]{64}, expected 50000 bytes with sha256 [0-9a-f]{64}; download discarded/);
      expect(existsSync(cachedAt(cacheDir, 'sets/a/reference.txt'))).toBe(false);
      expect(existsSync(cachedAt(cacheDir, 'sets/a/reference.txt') + '.part')).toBe(false);
      expect(datasetCacheStatus(toy, { cacheDir }).missing).toEqual(['sets/a/reference.txt']);
    });
  });

  it('never shows a half-downloaded file under its final name: it stays a .part until verified', async () => {
    await withToyUpstream({ stall: new Set(['sets/a/source.txt']) }, async ({ bodies, toy, up }) => {
      const cacheDir = tempCache();
      const err = await fetchDatasetEntry(toy, { cacheDir, source: up.source, idleTimeoutMs: 300, maxAttempts: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataFetchError);
      expect((err as Error).message).toMatch(/cannot fetch http:\/\/127\.0\.0\.1:\d+\/acme\/data\/c0ffee0+1\/sets\/a\/source\.txt: .*no data for 300 ms/);
      const target = cachedAt(cacheDir, 'sets/a/source.txt');
      expect(existsSync(target)).toBe(false);
      expect(readFileSync(`${target}.part`).equals(defined(bodies['sets/a/source.txt']).subarray(0, 100_000))).toBe(true);
      expect(datasetCacheStatus(toy, { cacheDir }).cached).toBe(false);
    });
  });

  it('reads a mirror served over HTTP under a path prefix, laid out like upstream', async () => {
    await withToyUpstream({ prefix: '/mirror/menli' }, async ({ toy, up }) => {
      const cacheDir = tempCache();
      const source = parseDataMirror(up.base.replace(/\/$/, '')); // without the trailing slash
      await fetchDatasetEntry(toy, { cacheDir, source });
      expect(up.requests.map((q) => q.path)).toEqual(['LICENSE', 'sets/a/source.txt', 'sets/a/reference.txt']);
      expect(datasetCacheStatus(toy, { cacheDir }).cached).toBe(true);
    });
  });

  it('copies from a mirror folder into the cache, verified: a damaged mirror file is rejected', async () => {
    const { bodies, toy } = fixture();
    const mirror = tempCache();
    for (const [p, b] of Object.entries(bodies)) {
      const file = join(mirror, 'acme', 'data', COMMIT, ...p.split('/'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, b);
    }
    const cacheDir = tempCache();
    const r = await fetchDatasetEntry(toy, { cacheDir, source: parseDataMirror(`file://${mirror}`) });
    expect(r.files.map((f) => f.localPath)).toEqual(['LICENSE', 'sets/a/source.txt', 'sets/a/reference.txt'].map((p) => cachedAt(cacheDir, p)));

    writeFileSync(join(mirror, 'acme', 'data', COMMIT, 'sets', 'a', 'reference.txt'), 'tampered\n');
    const other = tempCache();
    await expect(fetchDatasetEntry(toy, { cacheDir: other, source: parseDataMirror(mirror) })).rejects.toThrow(ChecksumMismatchError);
    expect(existsSync(cachedAt(other, 'sets/a/reference.txt'))).toBe(false);
    rmSync(join(mirror, 'acme', 'data', COMMIT, 'sets', 'a', 'reference.txt'));
    await expect(fetchDatasetEntry(toy, { cacheDir: other, source: parseDataMirror(mirror) })).rejects.toThrow(/sets\/a\/reference\.txt is not in mirror folder .*\(looked for .*reference\.txt\)/);
  });

  it('pins a file without a registry checksum on first fetch and holds later fetches to that pin', async () => {
    const { bodies, fresh } = fixture();
    const up = await startUpstream(bodies);
    const cacheDir = tempCache();
    try {
      expect(datasetCacheStatus(fresh, { cacheDir }).unverified).toEqual(['sets/b/data.csv']);
      const log: string[] = [];
      const r = await fetchDatasetEntry(fresh, { cacheDir, source: up.source, log: (m) => log.push(m) });
      expect(r.files[1]).toMatchObject({ path: 'sets/b/data.csv', bytes: defined(bodies['sets/b/data.csv']).length, sha256: sha(defined(bodies['sets/b/data.csv'])), downloaded: true, pinned: true });
      expect(readPins(cacheDir).files[`acme/data/${COMMIT}/sets/b/data.csv`]).toMatchObject({ bytes: 15, sha256: sha(defined(bodies['sets/b/data.csv'])) });
      expect(log.join('\n')).toMatch(/no checksum in the registry; pinned on first fetch as 15 bytes/);
      expect(datasetCacheStatus(fresh, { cacheDir })).toMatchObject({ cached: true, unverified: [] });
    } finally {
      await up.close();
    }
    // Upstream changes the file: the pin catches it.
    rmSync(cachedAt(cacheDir, 'sets/b/data.csv'));
    const changed = await startUpstream({ ...bodies, 'sets/b/data.csv': Buffer.from('error,id\nadd,2\n') });
    try {
      await expect(fetchDatasetEntry(fresh, { cacheDir, source: changed.source })).rejects.toThrow(/expected 15 bytes with sha256 [0-9a-f]{64} \(pinned on first fetch\); download discarded/);
    } finally {
      await changed.close();
    }
  });

  it('fails in one line that names the URL and PODIUM_DATA_MIRROR when upstream cannot be reached', async () => {
    const { bodies, toy } = fixture();
    const up = await startUpstream(bodies);
    const base = up.base;
    await up.close(); // nothing listens there now
    const err = await fetchDatasetEntry(toy, { cacheDir: tempCache(), source: { kind: 'upstream', base }, maxAttempts: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFetchError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^cannot fetch http:\/\/127\.0\.0\.1:\d+\/acme\/data\/c0ffee0+1\/LICENSE: fetch failed \(ECONNREFUSED\); without network access, set PODIUM_DATA_MIRROR/);
  });

  it('does not retry a 404 from a mirror, and says which file is missing there', async () => {
    const { bodies, toy } = fixture();
    const { 'sets/a/reference.txt': _gone, ...rest } = bodies;
    const up = await startUpstream(rest);
    try {
      await expect(fetchDatasetEntry(toy, { cacheDir: tempCache(), source: up.source })).rejects.toThrow(/cannot fetch .*sets\/a\/reference\.txt: HTTP 404 Not Found$/);
      expect(up.requests.filter((q) => q.path.endsWith('reference.txt'))).toHaveLength(1);
    } finally {
      await up.close();
    }
  });

  it('shares one download between concurrent fetches of the same files', async () => {
    await withToyUpstream(async ({ toy, up }) => {
      const cacheDir = tempCache();
      const [a, b] = await Promise.all([fetchDatasetEntry(toy, { cacheDir, source: up.source }), fetchDatasetEntry(toy, { cacheDir, source: up.source })]);
      expect(a.files.map((f) => f.localPath)).toEqual(b.files.map((f) => f.localPath));
      expect(up.requests.map((q) => q.path)).toEqual(['LICENSE', 'sets/a/source.txt', 'sets/a/reference.txt']);
      expect(tree(join(cacheDir, 'datasets')).filter((f) => f.endsWith('.lock') || f.endsWith('.part'))).toEqual([]);
    });
  });

  it('waits for a file another live process is fetching, and takes over the lock of a dead one', async () => {
    await withToyUpstream(async ({ toy, up }) => {
      const cacheDir = tempCache();
      const lock = cachedAt(cacheDir, 'LICENSE') + '.lock';
      mkdirSync(dirname(lock), { recursive: true });
      writeFileSync(lock, String(process.pid)); // alive: this very process
      await expect(fetchDatasetEntry(toy, { cacheDir, source: up.source, idleTimeoutMs: 50, maxAttempts: 1 })).rejects.toThrow(
        new RegExp(`LICENSE is being fetched by process ${process.pid}`),
      );
      expect(up.requests).toHaveLength(0);
      writeFileSync(lock, '2147483646'); // no such process
      await fetchDatasetEntry(toy, { cacheDir, source: up.source });
      expect(existsSync(lock)).toBe(false);
      expect(datasetCacheStatus(toy, { cacheDir }).cached).toBe(true);
    });
  });

  it('rejects an unknown data set name before touching the network', async () => {
    await expect(fetchDataset('wmt99-de-en', { cacheDir: tempCache(), source: { kind: 'url', base: 'http://127.0.0.1:9/' } })).rejects.toThrow(UnknownDatasetError);
  });
});

describe('cache folder and mirror settings', () => {
  it('takes PODIUM_CACHE, else XDG_CACHE_HOME/podium, else ~/.cache/podium', () => {
    expect(defaultCacheDir({ PODIUM_CACHE: '/srv/cache', XDG_CACHE_HOME: '/x' })).toBe('/srv/cache');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/podium');
    expect(defaultCacheDir({})).toBe(join(homedir(), '.cache', 'podium'));
  });

  it('reads PODIUM_DATA_MIRROR as a URL, a file URL or a folder; unset means upstream', () => {
    expect(parseDataMirror(undefined)).toEqual({ kind: 'upstream', base: 'https://raw.githubusercontent.com/' });
    expect(parseDataMirror('https://mirror.example/data')).toEqual({ kind: 'url', base: 'https://mirror.example/data/' });
    expect(parseDataMirror('file:///srv/mirror')).toEqual({ kind: 'directory', dir: '/srv/mirror' });
    expect(parseDataMirror('/srv/mirror')).toEqual({ kind: 'directory', dir: '/srv/mirror' });
    expect(() => parseDataMirror('ftp://mirror.example/')).toThrow(/must be an http\(s\) URL or a directory/);
  });
});
