import type { MetricConfig } from '@podium/contracts';
import type { ScoreRepository, StoredStatistics } from '@podium/db';
import { getMetric } from '@podium/metrics';
import { corpusStatistics, summedStats } from './corpus-statistics';
import { defined } from '../../../test/support/defined';

const BLEU: MetricConfig = { key: 'bleu', name: 'bleu', options: {} };
const SIGNATURE = getMetric('bleu', {}, 1).sentenceSignature;
const references = [['a b c'], ['d e f']];
// BLEU rows [hyp len, ref len, matches 1–4, totals 1–4], counted by hand (Papineni et al. 2002):
// 'a b c' against itself matches 3, 2, 1 n-grams of orders 1–3; 'd e x' against 'd e f' 2 and 1.
const SAME = [3, 3, 3, 2, 1, 0, 3, 2, 1, 0];
const ONE_WRONG = [3, 3, 2, 1, 0, 0, 3, 2, 1, 0];
// 'a b c' against 'd e f' (and the reverse): no n-gram matches.
const NONE = [3, 3, 0, 0, 0, 0, 3, 2, 1, 0];

const flat = (rows: number[][]) => ({ rows: rows.length, width: rows[0]?.length ?? 0, data: Float64Array.from(rows.flat()) });

function fakeScores(stored: (StoredStatistics | null)[], outputsOf: Record<string, string[]>) {
  const asked: string[][] = [];
  const repo = {
    sufficientStatistics: async () => stored,
    testSetShape: async () => ({ instances: references.length, maxReferences: 1 }),
    alignedTexts: async (_testSetId: string, ids: string[]) => {
      asked.push(ids);
      return { references, outputs: ids.map((id) => defined(outputsOf[id], `outputs of ${id}`)) };
    },
  };
  return { repo: repo as unknown as Pick<ScoreRepository, 'alignedTexts' | 'sufficientStatistics' | 'testSetShape'>, asked };
}

describe('corpusStatistics with stored statistics', () => {
  it('uses the stored rows where their signature and test set match (in place), and recomputes only the others from their texts', async () => {
    const stored = { signature: SIGNATURE, testSetId: 'ts', stats: flat([SAME, ONE_WRONG]) };
    const { repo, asked } = fakeScores([stored, null], { b: ['a b c', 'd e x'] });
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a', 'b']), 'corpus statistics');
    expect(r.stats.width).toBe(10);
    expect(r.stats.data[0]).toBe(stored.stats.data);
    expect(r.stats.data[1]).toEqual(Float64Array.from([...SAME, ...ONE_WRONG]));
    expect(asked).toEqual([['b']]);
  });

  it('recomputes stored rows of another signature (options changed since scoring), another test set or another length', async () => {
    const { repo, asked } = fakeScores(
      [
        { signature: 'bleu|other', testSetId: 'ts', stats: flat([[0], [0]]) },
        { signature: SIGNATURE, testSetId: 'old', stats: flat([[0], [0]]) },
        { signature: SIGNATURE, testSetId: 'ts', stats: flat([SAME]) },
      ],
      { a: ['a b c', 'a b c'], b: ['d e x', 'd e f'], c: ['a b c', 'd e x'] },
    );
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a', 'b', 'c']), 'corpus statistics');
    expect(r.stats.data[0]).toEqual(Float64Array.from([...SAME, ...NONE]));
    expect(r.stats.data[1]).toEqual(Float64Array.from([...NONE, ...SAME]));
    expect(r.stats.data[2]).toEqual(Float64Array.from([...SAME, ...ONE_WRONG]));
    expect(asked).toEqual([['a', 'b', 'c']]);
  });

  it('reads no text when every submission has usable stored rows', async () => {
    const { repo, asked } = fakeScores([{ signature: SIGNATURE, testSetId: 'ts', stats: flat([SAME, SAME]) }], {});
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a']), 'corpus statistics');
    expect(r.stats.data).toEqual([Float64Array.from([...SAME, ...SAME])]);
    expect(asked).toEqual([]);
  });

  it('sums a system’s statistics column by column', () => {
    expect(summedStats(Float64Array.from([...SAME, ...ONE_WRONG]), 10)).toEqual([6, 6, 5, 3, 1, 0, 6, 4, 2, 0]);
  });
});
