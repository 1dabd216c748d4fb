// The ranking methods' room (ADR 0033, 0036): every file of this folder that is not the registry
// or the method contract is one method, imported by the generated modules.generated.ts; adding a
// method is its file and its spec, nothing else.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Analysis } from '../analyse';
import type { ScoreTable } from '../score-table';
import type { RankingMethod } from './method';
import { isRankingMethod, METHOD_MODULES, RANKING_METHODS, rankingMethodsOf } from './registry';

const dir = __dirname;
const GENERATOR = path.join(dir, '..', '..', '..', '..', 'scripts', 'generate-plugin-index.mjs');
const INFRASTRUCTURE = new Set(['method', 'registry']);
const methodFiles = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.generated.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((f) => !INFRASTRUCTURE.has(f));

describe('ranking method registry', () => {
  it('keeps the order boards and CSV columns had when the list was written by hand (ADR 0021)', () => {
    expect(RANKING_METHODS.map((m) => m.key)).toEqual(['corpus', 'mean', 'median', 'bt', 'elo', 'trueskill', 'mean_win_rate']);
  });

  it('imports every method file of the folder through the generated index, and nothing else', () => {
    const listed = Object.keys(METHOD_MODULES);
    const problems = [
      ...methodFiles.filter((f) => !listed.includes(f)).map((f) => `method file '${f}.ts' is not in it`),
      ...listed.filter((f) => !methodFiles.includes(f)).map((f) => `it lists '${f}', which is no method file of methods/`),
    ];
    if (problems.length > 0) throw new Error(`methods/modules.generated.ts is stale: ${problems.join('; ')}. Run \`npm run generate\` (node scripts/generate-plugin-index.mjs).`);
  });

  it.each(methodFiles)('%s exports exactly one registered method', (file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each method file of the folder, by its name
    const methods = Object.values(require(path.join(dir, file)) as Record<string, unknown>).filter(isRankingMethod);
    expect(methods).toHaveLength(1);
    expect(RANKING_METHODS).toContain(methods[0]);
  });

  it('refuses a key given twice', () => {
    const [first] = RANKING_METHODS;
    expect(() => rankingMethodsOf([{ a: first }, { b: first }])).toThrow(`ranking method '${String(first?.key)}' is registered twice`);
  });

  describe('a method added as one file', () => {
    let root: string;
    let copy: string;
    let touched: string[] = [];
    beforeAll(() => {
      // A copy of the library (at libs/ranking/src below a throw-away root) with one more file in
      // methods/; the generator, run on the copy, is the only other writer.
      root = mkdtempSync(path.join(os.tmpdir(), 'podium-methods-'));
      copy = path.join(root, 'libs', 'ranking', 'src');
      mkdirSync(copy, { recursive: true });
      cpSync(path.join(dir, '..'), copy, { recursive: true, filter: (src) => !src.endsWith('.spec.ts') });
      const before = snapshot(copy);
      writeFileSync(
        path.join(copy, 'methods', 'best-instance-count.ts'),
        `import type { RankingMethod } from './method';
export const bestInstanceCountMethod: RankingMethod = {
  key: 'best_instance_count',
  label: 'Instances won',
  order: 80,
  description: 'How many instances the system scores best on (throw-away method of registry.spec.ts).',
  intervalKind: 'bootstrap',
  direction: 'higher is better',
  estimate: ({ x }) => {
    const value = x.map((row, i) => row.filter((v, l) => x.every((other, j) => j === i || other[l]! < v)).length);
    return { value, interval: value.map(() => null), order: value, tolerance: 0, rankInterval: value.map(() => [1, x.length] as [number, number]) };
  },
};
`,
      );
      const r = spawnSync(process.execPath, [GENERATOR, '--root', root], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`the generator failed: ${r.stderr}`);
      const after = snapshot(copy);
      touched = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('touches the new file and the generated index, nothing else', () => {
      expect(touched).toEqual(['methods/best-instance-count.ts', 'methods/modules.generated.ts']);
    });

    it('is registered, last by its order, and the analysis computes and ranks it', () => {
      let methods: readonly RankingMethod[] = [];
      let analysis: Analysis | undefined;
      const table: ScoreTable = {
        systems: ['A', 'B', 'C'],
        instances: ['1', '2', '3'],
        scores: [
          [3, 1, 1],
          [2, 2, 0],
          [1, 0, 2],
        ],
      };
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy's registry, loaded fresh
        methods = (require(path.join(copy, 'methods', 'registry')) as { RANKING_METHODS: readonly RankingMethod[] }).RANKING_METHODS;
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy's analysis, which loops over the copy's registry
        const { analyseSystems } = require(path.join(copy, 'analyse')) as { analyseSystems: (t: ScoreTable, o: object) => Analysis };
        analysis = analyseSystems(table, { resamples: 200, seed: 1 });
      });
      expect(methods.map((m) => m.key)).toEqual([...RANKING_METHODS.map((m) => m.key), 'best_instance_count']);
      expect(analysis?.methods.map((m) => m.key)).toContain('best_instance_count');
      // A wins instance 1 alone (3 > 2, 1), B instance 2 (2 > 1, 0), C instance 3 (2 > 1, 0): one each.
      expect(analysis?.systems.map((s) => s.methods['best_instance_count']?.value)).toEqual([1, 1, 1]);
    });
  });
});

/** Every file below a folder (relative path → content). */
function snapshot(top: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else files.set(path.relative(top, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(top);
  return files;
}
