import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_DATA_MIRROR } from '../../../../test/support/test-data';
import { CliError } from '../cli-error';
import { dataCommand } from './data.command';
import { compiledApp } from '../../../../test/support/compiled-app';
import { defined } from '../../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const ROOT = resolve(__dirname, '../../../..');
const COMMIT = '911238d470288125d35cc950f69411bc619a2c4b';

/** Runs the real, compiled CLI in a child process (as `npm run -s podium -- …` does). */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Listing {
  cacheDir: string;
  source: string;
  licences: { source: string; licence: string; copyright: string }[];
  datasets: { name: string; bytes: number | null; cached: boolean; suite?: string; licence: string; unverified?: string }[];
}

describe('podium data', () => {
  const cache = mkdtempSync(join(tmpdir(), 'podium-cli-data-'));
  const temps = [cache];
  afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const flags = ['--cache', cache, '--mirror', TEST_DATA_MIRROR];
  const run = async (...argv: string[]) => dataCommand.run([...argv, ...flags]);

  it('lists every data set with its size, licence and cache state, and fetches one into the cache', async () => {
    const before = (await run('list')) as Listing;
    expect(before.cacheDir).toBe(cache);
    expect(before.source).toBe(`mirror folder ${TEST_DATA_MIRROR}`);
    expect(before.licences).toEqual([
      expect.objectContaining({ source: `https://github.com/cyr19/MENLI at commit ${COMMIT}`, licence: 'MIT', copyright: 'Copyright (c) 2022 Yanran Chen' }),
      expect.objectContaining({ source: 'https://github.com/kkalouli/SICK-processing at commit 0848f4aec60870122a4ca18de08ba0e25f6f9a75', licence: 'CC BY-NC-SA 3.0' }),
      expect.objectContaining({ source: 'https://github.com/AIPHES/ACL20-Reference-Free-MT-Evaluation at commit 0e82783e481a175a8a8c45826fc94f3c7d8cb62a', licence: 'BSD' }),
    ]);
    expect(before.datasets).toHaveLength(18);
    expect(before.datasets.every((d) => !d.cached)).toBe(true);
    expect(before.datasets.find((d) => d.name === 'wmt17-de-en')).toMatchObject({ bytes: 4_654_672, licence: expect.stringMatching(/^MIT, Copyright \(c\) 2022 Yanran Chen/) });
    expect(before.datasets.find((d) => d.name === 'menli-xpaws-ja')).toMatchObject({ bytes: null, suite: 'builtin:xpaws-ja', unverified: expect.stringMatching(/pinned \(size and sha256\) on first download/) });

    const fetched = (await run('fetch', 'wmt17-de-en', 'builtin:wmt20-de')) as { fetched: { name: string; files: number; downloadedBytes: number }[] };
    expect(fetched.fetched).toEqual([
      expect.objectContaining({ name: 'wmt17-de-en', files: 15, downloadedBytes: 4_654_672 }),
      expect.objectContaining({ name: 'menli-wmt20-de', files: 2, downloadedBytes: 1_460_735 }), // LICENSE already cached
    ]);
    const after = (await run('list')) as Listing;
    expect(after.datasets.filter((d) => d.cached).map((d) => d.name)).toEqual(['wmt17-de-en', 'menli-wmt20-de']);
  });

  it('prints the cached files of a test set by role', async () => {
    const p = (await run('path', 'wmt17-de-en')) as { source: string; reference: string; human: string; systems: Record<string, string>; licenceFile: string };
    expect(p.reference).toBe(join(cache, 'datasets', 'cyr19', 'MENLI', COMMIT, 'experiments', 'datasets', 'WMT17', 'references', 'newstest2017-deen-ref.en'));
    expect(Object.keys(p.systems)).toHaveLength(11);
    expect(readFileSync(p.licenceFile, 'utf8')).toContain('Copyright (c) 2022 Yanran Chen');
    expect(existsSync(defined(p.systems['online-B.0']))).toBe(true);
  });

  it('rejects unknown names, a missing name and unknown actions as one-line user errors', async () => {
    await expect(run('fetch', 'wmt17-xx-en')).rejects.toThrow(/^unknown data set 'wmt17-xx-en'; known: wmt17-de-en/);
    await expect(run('fetch')).rejects.toThrow(CliError);
    await expect(run('fetch', 'wmt17-de-en', '--all')).rejects.toThrow(/not both/);
    await expect(run('remove', 'x')).rejects.toThrow(/expected 'list', 'fetch NAME' or 'path NAME'/);
    await expect(dataCommand.run(['list', '--mirror', 'ftp://x/'])).rejects.toThrow(/must be an http\(s\) URL or a directory/);
  });

  it('goes on past data sets the mirror lacks with --all, then names them (xpaws-fr/ja are not in the test mirror)', async () => {
    const other = mkdtempSync(join(tmpdir(), 'podium-cli-data-all-'));
    temps.push(other);
    await expect(dataCommand.run(['fetch', '--all', '--cache', other, '--mirror', TEST_DATA_MIRROR])).rejects.toThrow(
      /^fetched 15 of 18 data sets; not menli-xpaws-fr, menli-xpaws-ja, xmoverscore-mappings \(see above\)$/,
    );
    const listing = (await dataCommand.run(['list', '--cache', other])) as Listing;
    expect(listing.datasets.filter((d) => !d.cached).map((d) => d.name)).toEqual(['menli-xpaws-fr', 'menli-xpaws-ja', 'xmoverscore-mappings']);
  }, 120_000);

  it('exits 2 with one line naming the failure and PODIUM_DATA_MIRROR when nothing can be fetched', async () => {
    const r = await cli(['data', 'fetch', 'menli-xpaws-de'], { PODIUM_CACHE: mkdtempSync(join(tmpdir(), 'podium-cli-data-')), PODIUM_DATA_MIRROR: join(tmpdir(), 'podium-no-such-mirror') });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^podium data: fetching menli-xpaws-de \(2 files, 3\.9 MB\) from mirror folder .*podium-no-such-mirror into /);
    expect(lines[1]).toMatch(/^podium data: menli-xpaws-de: PODIUM_DATA_MIRROR names .*podium-no-such-mirror, which does not exist$/);
    expect(lines).toHaveLength(2);
  }, 60_000);
});
