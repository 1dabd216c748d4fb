// The ranking methods' room (ADR 0033): every file of this folder that is not the registry or the
// method contract is one method, listed in the registry's METHOD_MODULES; adding a method is its
// file, its spec and that line.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Analysis } from '../analyse';
import type { ScoreTable } from '../score-table';
import type { RankingMethod } from './method';
import { isRankingMethod, METHOD_MODULES, RANKING_METHODS, rankingMethodsOf } from './registry';

const dir = __dirname;
const INFRASTRUCTURE = new Set(['method', 'registry']);
const methodFiles = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((f) => !INFRASTRUCTURE.has(f));

describe('ranking method registry', () => {
  it('keeps the order boards and CSV columns had when the list was written by hand (ADR 0021)', () => {
    expect(RANKING_METHODS.map((m) => m.key)).toEqual(['corpus', 'mean', 'median', 'bt', 'elo', 'trueskill', 'mean_win_rate']);
  });

  it('lists every method file of the folder in the registry (a file left out there is no method)', () => {
    expect(Object.keys(METHOD_MODULES).sort()).toEqual([...methodFiles].sort());
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
    let copy: string;
    beforeAll(() => {
      // A copy of the library with one more file in methods/ and its line in the registry: nothing else is edited.
      copy = mkdtempSync(path.join(os.tmpdir(), 'podium-methods-'));
      cpSync(path.join(dir, '..'), copy, { recursive: true, filter: (src) => !src.endsWith('.spec.ts') });
      const registry = path.join(copy, 'methods', 'registry.ts');
      const source = readFileSync(registry, 'utf8');
      const line = /export const METHOD_MODULES[^=]*= \{/.exec(source)?.[0];
      if (!line) throw new Error('registry.ts declares no METHOD_MODULES');
      writeFileSync(registry, `import * as bestInstanceCount from './best-instance-count';\n${source.replace(line, `${line} 'best-instance-count': bestInstanceCount,`)}`);
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
    });
    afterAll(() => rmSync(copy, { recursive: true, force: true }));

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
