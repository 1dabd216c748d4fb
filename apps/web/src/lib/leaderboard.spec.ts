import { METHODS, pair, row } from '../test/fixtures';
import { blockCells, clusterBands, pairsApartOf, tilesCovering, findPair, heatmapBlocks, orderSystems, pairCells, topDisagreementNote, topSystems, withinClusterSignificant, withinClusterSignificantAll } from './leaderboard';
import { defined } from '../../../../test/support/defined';
import { pairTileUrl } from './leaderboard-request';

const rows = [
  row('A', { mean: 1, bt: 2, elo: 1, trueskill: 1, median: 1 }, { cluster: { mean: 1, median: 1, bt: 1 } }),
  row('B', { mean: 2, bt: 1, elo: 2, trueskill: 2, median: 2 }, { cluster: { mean: 1, median: 1, bt: 1 } }),
  row('C', { mean: 3, bt: 3, elo: 3, trueskill: 3, median: 3 }, { cluster: { mean: 2, median: 1, bt: 2 } }),
];

describe('orderSystems', () => {
  it('orders systems by the rank of the chosen aggregation', () => {
    expect(orderSystems(rows, 'mean').map((r) => r.system)).toEqual(['A', 'B', 'C']);
    expect(orderSystems(rows, 'bt').map((r) => r.system)).toEqual(['B', 'A', 'C']);
  });

  it('keeps the given order for tied ranks', () => {
    const tied = [row('X', { mean: 1, median: 2 }), row('Y', { mean: 2, median: 2 }), row('Z', { mean: 3, median: 1 })];
    expect(orderSystems(tied, 'median').map((r) => r.system)).toEqual(['Z', 'X', 'Y']);
  });
});

describe('clusterBands', () => {
  it('groups consecutive systems of one cluster into a band', () => {
    expect(clusterBands(orderSystems(rows, 'mean'), 'mean')).toEqual([
      { cluster: 1, start: 0, end: 1 },
      { cluster: 2, start: 2, end: 2 },
    ]);
    expect(clusterBands(rows, 'median')).toEqual([{ cluster: 1, start: 0, end: 2 }]);
  });

  it('has no bands for Elo and TrueSkill, which have no clusters', () => {
    expect(clusterBands(rows, 'elo')).toBeNull();
    expect(clusterBands(rows, 'trueskill')).toBeNull();
  });
});

describe('top system disagreement', () => {
  it('names the top system of each aggregation', () => {
    expect(topSystems(rows, METHODS)).toEqual({ mean: ['A'], median: ['A'], bt: ['B'], elo: ['A'], trueskill: ['A'] });
  });

  it('explains which aggregation puts which system first when they disagree', () => {
    expect(topDisagreementNote(rows, METHODS)).toBe('Mean, Median, Elo, TrueSkill rank A first; Bradley–Terry ranks B first');
  });

  it('says nothing when every aggregation agrees', () => {
    expect(topDisagreementNote([row('A', { mean: 1 }), row('B', { mean: 2 })], METHODS)).toBeNull();
  });

  it('ignores an exact tie (identical outputs: no instance won or lost) that Bradley–Terry breaks arbitrarily', () => {
    const tied = [row('A', { mean: 1, median: 1, bt: 1, elo: 1, trueskill: 1 }), row('B', { mean: 1, median: 1, bt: 2, elo: 2, trueskill: 2 }), row('C', { mean: 3, median: 3, bt: 3, elo: 3, trueskill: 3 })];
    expect(topDisagreementNote(tied, METHODS)).toBe('Mean, Median rank A, B first; Bradley–Terry, Elo, TrueSkill rank A first');
    expect(topDisagreementNote(tied, METHODS, [pair('A', 'B', { wins: 0, losses: 0, ties: 10 }), pair('A', 'C'), pair('B', 'C')])).toBeNull();
    expect(topDisagreementNote(tied, METHODS, [pair('A', 'B', { wins: 1, losses: 0, ties: 9 })])).not.toBeNull();
  });
});

describe('pairCells', () => {
  it('fills both halves of the matrix: P(b beats a) = 1 − P(a beats b), with wins and losses swapped', () => {
    const cells = pairCells([pair('A', 'B', { pBt: 0.7, wins: 6, losses: 3, pAdjusted: 0.2 })]);
    expect(cells).toHaveLength(2);
    const ab = defined(cells.find((c) => c.row === 'A'));
    const ba = defined(cells.find((c) => c.row === 'B'));
    expect(ab.pBeats).toBeCloseTo(0.7, 12);
    expect(ba.pBeats).toBeCloseTo(0.3, 12);
    expect([ba.wins, ba.losses]).toEqual([3, 6]);
    expect(ab.significant).toBe(false);
  });

  it('marks a pair significant when its adjusted p is below α', () => {
    const [cell] = pairCells([pair('A', 'B', { pAdjusted: 0.049 })]);
    expect(defined(cell).significant).toBe(true);
  });
});

describe('findPair', () => {
  it('finds a pair in either order and says whether it is flipped', () => {
    const pairs = [pair('A', 'B')];
    expect(findPair(pairs, 'id-A', 'id-B')?.flipped).toBe(false);
    expect(findPair(pairs, 'id-B', 'id-A')?.flipped).toBe(true);
    expect(findPair(pairs, 'id-A', 'id-C')).toBeNull();
  });
});

describe('heatmap blocks (arena-sized boards, issue #28)', () => {
  it('splits 1,000 systems into blocks of 30 and draws one block of the 499,500 pairs: 30 × 30 cells', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `s${i}`);
    const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => pair(a, b)));
    expect(pairs).toHaveLength(499_500);
    const blocks = heatmapBlocks(names.length);
    expect(blocks).toHaveLength(34); // ⌈1000 / 30⌉
    expect(blocks[0]).toEqual({ start: 0, end: 30, label: 'systems 1–30 of 1000' });
    expect(blocks.at(-1)).toEqual({ start: 990, end: 1000, label: 'systems 991–1000 of 1000' });
    const ids = (b: { start: number; end: number }) => new Set(names.slice(b.start, b.end).map((n) => `id-${n}`));
    // rows 1–30 against columns 31–60: every cell of the block, each pair oriented row → column
    const off = blockCells(pairs, ids(defined(blocks[0], 'block 0')), ids(defined(blocks[1], 'block 1')));
    expect(off).toHaveLength(900);
    expect(off.every((c) => Number(c.row.slice(1)) < 30 && Number(c.col.slice(1)) >= 30 && Number(c.col.slice(1)) < 60)).toBe(true);
    // the diagonal block: 30 × 29 cells (no system against itself)
    expect(blockCells(pairs, ids(defined(blocks[0], 'block 0')), ids(defined(blocks[0], 'block 0')))).toHaveLength(870);
  });
});

describe('withinClusterSignificantAll', () => {
  it('gives every row the list withinClusterSignificant gives it, in the same order', () => {
    const sys = ['A', 'B', 'C', 'D', 'E'];
    const rs = sys.map((n, i) => row(n, { mean: i + 1 }, { cluster: { mean: i < 3 ? 1 : 2, median: 1, bt: 1 } }));
    const ps = sys.flatMap((a, i) => sys.slice(i + 1).map((b, j) => pair(a, b, { significant: { mean: (i + j) % 2 === 0, median: false, bt: false, corpus: null } })));
    const all = withinClusterSignificantAll(rs, ps, 'mean');
    for (const r of rs) expect(all.get(r.submissionId) ?? []).toEqual(withinClusterSignificant(r, rs, ps, 'mean'));
    expect([...all.values()].flat().length).toBeGreaterThan(0);
  });
});

describe('tiles of a board whose pairs are stored apart (issue #28 item 5)', () => {
  const ids = Array.from({ length: 1000 }, (_, i) => `s${i}`);
  it('covers a 30 × 30 block in the board order with at most 4 tiles of 32, mirrored below the diagonal', () => {
    // rows 1–30 × columns 31–60: positions 0–29 (tile 0) × 30–59 (tiles 0, 1)
    expect(tilesCovering(ids, ids.slice(0, 30), ids.slice(30, 60), 32)).toEqual([{ row: 0, col: 0 }, { row: 0, col: 1 }]);
    // rows 61–90 × columns 1–30: below the diagonal, the same tiles as columns × rows
    expect(tilesCovering(ids, ids.slice(60, 90), ids.slice(0, 30), 32)).toEqual([{ row: 0, col: 1 }, { row: 0, col: 2 }]);
    // the last block, 991–1000, against itself: positions 990–999, tile 30 (960–991) and 31
    expect(tilesCovering(ids, ids.slice(990), ids.slice(990), 32)).toEqual([{ row: 30, col: 30 }, { row: 30, col: 31 }, { row: 31, col: 31 }]);
    expect(tilesCovering(ids, ['unknown'], ids.slice(0, 2), 32)).toEqual([]);
  });
  it('reads pairsApart from the document and asks for a tile with the board’s own view arguments', () => {
    const board = { pairsApart: { count: 499500, tile: 32, tiles: 32 } } as unknown as Parameters<typeof pairsApartOf>[0];
    expect(pairsApartOf(board)).toEqual({ count: 499500, tile: 32, tiles: 32 });
    expect(pairsApartOf({ pairsApart: { tile: 0 } } as unknown as Parameters<typeof pairsApartOf>[0])).toBeNull();
    expect(pairTileUrl('p 1', { metric: 'bleu', test: 'SIGN', allSubmissions: true }, 2, 5)).toBe('/api/phases/p%201/leaderboard-pairs.json?metric=bleu&test=sign&submissions=all&row=2&col=5');
  });
});
