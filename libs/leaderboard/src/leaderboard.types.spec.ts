import { SENTENCE_TESTS } from '@podium/ranking';
import { PairedTest, type PairTestResult } from './leaderboard.types';
import { pairTestField, pairTestsOf, upgradeStoredBoard } from './document';

describe('the GraphQL test enum', () => {
  it('names exactly the ranking library’s instance-score tests, in its order (libs/ranking/src/tests/registry.ts)', () => {
    expect(Object.values(PairedTest)).toEqual([...SENTENCE_TESTS]);
  });
});

describe('boards stored before method-keyed values (format lb2)', () => {
  it('read back with empty methods and values, and current ones unchanged', () => {
    const old = { phaseId: 'p', systems: [{ system: 'A' }] };
    expect(upgradeStoredBoard(old)).toEqual({ phaseId: 'p', methods: [], systems: [{ system: 'A', values: [] }] });
    const current = { phaseId: 'p', methods: [{ key: 'mean' }], systems: [{ system: 'A', values: [{ method: 'mean' }] }] };
    expect(upgradeStoredBoard(current)).toBe(current);
  });
});

describe('boards stored before testResults', () => {
  it("read each pair's results off its tests object in registry order, corpus tests only where stored", () => {
    const tests = { ttest: 0.01, wilcoxon: null, sign: 0.03, mood: 0.04, bootstrap: 0.05, ar: 0.06, bootstrapCorpus: 0.07, arCorpus: null };
    const board = upgradeStoredBoard({ phaseId: 'p', methods: [], systems: [], pairs: [{ a: 'A', b: 'B', tests }] });
    expect((board['pairs'] as { testResults: unknown }[])[0]?.testResults).toEqual([
      { test: 'ttest', p: 0.01 },
      { test: 'wilcoxon', p: null },
      { test: 'sign', p: 0.03 },
      { test: 'mood', p: 0.04 },
      { test: 'bootstrap', p: 0.05 },
      { test: 'ar', p: 0.06 },
      { test: 'bootstrap_corpus', p: 0.07 },
    ]);
    const current = { phaseId: 'p', methods: [], systems: [], pairs: [{ tests, testResults: [] }] };
    expect(upgradeStoredBoard(current)).toBe(current);
  });

  it("gives GraphQL's deprecated tests object back from testResults, field for field as boards stored it", () => {
    const tests = { ttest: 0.01, wilcoxon: null, sign: 0.03, mood: 0.04, bootstrap: 0.05, ar: 0.06, bootstrapCorpus: 0.07, arCorpus: null };
    const board = upgradeStoredBoard({ phaseId: 'p', methods: [], systems: [], pairs: [{ a: 'A', b: 'B', tests }] });
    const [pair] = board['pairs'] as { testResults: PairTestResult[] }[];
    expect(pairTestsOf(pair?.testResults ?? [])).toEqual(tests);
    expect(pairTestField('bootstrap_corpus')).toBe('bootstrapCorpus');
  });
});
