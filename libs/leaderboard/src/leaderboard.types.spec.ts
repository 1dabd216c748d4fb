import { SENTENCE_TESTS } from '@podium/ranking';
import { PairedTest } from './leaderboard.types';
import { upgradeStoredBoard } from './document';

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
