import type { MetricConfig } from '@podium/contracts';
import type { ScoreRepository, StoredStatistics } from '@podium/db';
import { getMetric } from '@podium/metrics';
import { corpusStatistics } from './corpus-statistics';
import { defined } from '../../../test/support/defined';

const BLEU: MetricConfig = { key: 'bleu', name: 'bleu', options: {} };
const SIGNATURE = getMetric('bleu', {}, 1).sentenceSignature;
const references = [['a b c'], ['d e f']];
// BLEU rows [hyp len, ref len, matches 1–4, totals 1–4], counted by hand (Papineni et al. 2002):
// 'a b c' against itself matches 3, 2, 1 n-grams of orders 1–3; 'd e x' against 'd e f' 2 and 1.
const SAME = [3, 3, 3, 2, 1, 0, 3, 2, 1, 0];
const ONE_WRONG = [3, 3, 2, 1, 0, 0, 3, 2, 1, 0];

function fakeScores(stored: (StoredStatistics | null)[], outputsOf: Record<string, string[]>) {
  const asked: string[][] = [];
  const repo = {
    sufficientStatistics: async () => stored,
    alignedTexts: async (_testSetId: string, ids: string[]) => {
      asked.push(ids);
      return { references, outputs: ids.map((id) => defined(outputsOf[id], `outputs of ${id}`)) };
    },
  };
  return { repo: repo as unknown as Pick<ScoreRepository, 'alignedTexts' | 'sufficientStatistics'>, asked };
}

describe('corpusStatistics with stored statistics', () => {
  it('uses the stored rows where their signature and test set match, and recomputes only the others from their texts', async () => {
    const stored = { signature: SIGNATURE, testSetId: 'ts', stats: [SAME, ONE_WRONG] };
    const { repo, asked } = fakeScores([stored, null], { b: ['a b c', 'd e x'] });
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a', 'b']), 'corpus statistics');
    expect(r.stats[0]).toBe(stored.stats);
    expect(r.stats[1]).toEqual([SAME, ONE_WRONG]);
    expect(asked).toEqual([['b']]);
  });

  it('recomputes stored rows of another signature (options changed since scoring) or another test set', async () => {
    const { repo, asked } = fakeScores(
      [{ signature: 'bleu|other', testSetId: 'ts', stats: [[0], [0]] }, { signature: SIGNATURE, testSetId: 'old', stats: [[0], [0]] }],
      { a: ['a b c', 'a b c'], b: ['d e x', 'd e f'] },
    );
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a', 'b']), 'corpus statistics');
    expect(defined(r.stats[0], 'system a').at(0)).toEqual(SAME);
    expect(defined(r.stats[1], 'system b').at(1)).toEqual([3, 3, 3, 2, 1, 0, 3, 2, 1, 0]);
    expect(asked).toEqual([[], ['a', 'b']]);
  });

  it('reads no output when every submission has usable stored rows', async () => {
    const { repo, asked } = fakeScores([{ signature: SIGNATURE, testSetId: 'ts', stats: [SAME, SAME] }], {});
    const r = defined(await corpusStatistics(repo, BLEU, 'ts', ['a']), 'corpus statistics');
    expect(r.stats).toEqual([[SAME, SAME]]);
    expect(asked).toEqual([[]]);
  });
});
