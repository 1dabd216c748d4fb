/**
 * package.json and package-lock.json agree (issue #27): `npm ci`, which .ci/run, `npm run up`
 * and both Dockerfiles install with, refuses a lock that does not satisfy package.json. This runs
 * npm's own check (`npm ci --dry-run`, offline, no scripts) on a copy of the two files, so a
 * dependency added to package.json without its lock fails here, not later in a Docker build.
 * The control changes one range in the copy (zod ^3, while the lock holds zod 4) and expects the
 * same command to refuse it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

function npmCiDryRun(dir: string): { status: number | null; output: string } {
  const r = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('package-lock.json', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'podium-lock-'));
    for (const f of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(path.join(root, f), path.join(dir, f));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('satisfies package.json: npm ci accepts it', () => {
    const r = npmCiDryRun(dir);
    expect({ status: r.status, errors: r.output.split('\n').filter((l) => l.startsWith('npm error')) }).toEqual({ status: 0, errors: [] });
  }, 150_000);

  it('lists every platform’s optional binaries of @swc/core (npm installs only this one’s)', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const swc = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/@swc/core-'));
    expect(swc).toEqual(expect.arrayContaining(['node_modules/@swc/core-darwin-arm64', 'node_modules/@swc/core-linux-x64-gnu', 'node_modules/@swc/core-win32-x64-msvc']));
  });

  it('control: a package.json range the lock does not satisfy is refused', () => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    pkg.dependencies['zod'] = '^3.0.0';
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    expect(npmCiDryRun(dir).status).not.toBe(0);
  }, 150_000);
});
