import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { encodeLeaderboard, parseLeaderboardDocumentLazily } from './document';
import { PairedTest, PValueCorrection, type Leaderboard, type SystemPair } from './leaderboard.types';
import { PAIR_TILE, readPairsApart, tileOrder, tilePairs } from './pair-tiles';

// Issue #28 item 5: the pairs of a large board leave its document for tiles of the matrix.
function pair(a: number, b: number): SystemPair {
  return {
    aSubmissionId: `s${a}`, bSubmissionId: `s${b}`, a: `S${a}`, b: `S${b}`, wins: a, losses: b, ties: 0, pBt: 0.5, medianDiff: 0, meanDiff: 0.1, p: 0.2, pAdjusted: 0.3, pTest: 'ttest',
    testResults: [{ test: 'ttest', p: 0.2 }], significant: { mean: false, median: false, bt: false, corpus: null },
  };
}

/** k systems in board order s0…s(k−1); pairs in the analysis' own order (here: by descending a, so not the board's). */
function board(k: number): Leaderboard {
  const pairs: SystemPair[] = [];
  for (let a = k - 1; a >= 0; a--) for (let b = 0; b < a; b++) pairs.push(pair(a, b));
  return {
    phaseId: 'p', metric: 'bleu', higherIsBetter: true, availableMetrics: ['bleu'], test: PairedTest.TTEST, correction: PValueCorrection.HOLM, seed: 1, alpha: 0.05,
    clusterDefinition: 'c', resamples: 200, resamplesChosen: true, smallestReachableP: 0.01, significanceWarnings: [], mainAggregation: 'mean', corpusSignature: '', clusterTests: [], methods: [],
    btFiniteMle: true, btNote: null, btComponents: [], metricSignature: '', instanceCount: 3, scoredOn: null,
    systems: Array.from({ length: k }, (_, s) => ({ system: `S${s}`, submissionId: `s${s}` }) as never), pairs, disagreement: null, notes: [],
    updating: false, stamp: 's', computedAt: new Date('2026-11-26T00:00:00.000Z'),
  };
}

describe('pair tiles', () => {
  it('puts every pair of 70 systems in exactly one tile (r ≤ c) of 32 × 32 positions, the tile of its two systems', () => {
    const b = board(70);
    const tiles = tilePairs(b.systems.map((s) => s.submissionId), b.pairs, PAIR_TILE);
    // 70 systems: tile rows 0–31, 32–63, 64–69 → 3 rows, 6 tiles with r ≤ c
    expect([...tiles.keys()].sort()).toEqual(['0:0', '0:1', '0:2', '1:1', '1:2', '2:2']);
    const all = [...tiles.values()].flatMap((t) => t.pairs);
    expect(all).toHaveLength((70 * 69) / 2);
    expect(new Set(all.map((p) => `${p.aSubmissionId}-${p.bSubmissionId}`)).size).toBe(all.length);
    for (const t of tiles.values()) {
      for (const p of t.pairs) {
        const [x, y] = [Number(p.aSubmissionId.slice(1)), Number(p.bSubmissionId.slice(1))].map((i) => Math.floor(i / 32));
        expect([Math.min(x ?? -1, y ?? -1), Math.max(x ?? -1, y ?? -1)]).toEqual([t.row, t.col]);
      }
    }
    // diagonal tile 0: 32·31/2 pairs; off-diagonal 0:1: 32 × 32; the short last row 2:2: 6·5/2
    expect([tiles.get('0:0')?.pairs.length, tiles.get('0:1')?.pairs.length, tiles.get('2:2')?.pairs.length]).toEqual([496, 1024, 15]);
    expect(tileOrder(3)).toEqual([{ row: 0, col: 0 }, { row: 0, col: 1 }, { row: 0, col: 2 }, { row: 1, col: 1 }, { row: 1, col: 2 }, { row: 2, col: 2 }]);
  });

  it('refuses a pair naming a system that is not on the board', () => {
    expect(() => tilePairs(['s0', 's1'], [pair(0, 2)])).toThrow(/s0–s2 names a system that is not on the board/);
  });

  it('stores a board of at most the threshold exactly as before (every pair in the document, no tiles)', () => {
    const b = board(5);
    const before = encodeLeaderboard(b);
    const at = encodeLeaderboard(b, { pairsApartAbove: 5 });
    expect(at.body).toBe(before.body);
    expect(at.etag).toBe(before.etag);
    expect(at.pairTiles).toBeUndefined();
    expect(readPairsApart(JSON.parse(at.body))).toBeNull();
  });

  it('above the threshold keeps the systems in the document and the pairs in compressed tiles that hold them all', () => {
    const b = board(40);
    const doc = encodeLeaderboard(b, { pairsApartAbove: 39 });
    const raw = JSON.parse(doc.body) as Record<string, unknown>;
    expect(raw['pairs']).toEqual([]);
    expect(readPairsApart(raw)).toEqual({ count: 780, tile: 32, tiles: 2 });
    // still read lazily: pairs stay the document's last key
    const lazy = parseLeaderboardDocumentLazily(Buffer.from(doc.body, 'utf8'));
    expect(lazy.systems).toHaveLength(40);
    expect(lazy.pairs).toEqual([]);
    const tiles = doc.pairTiles ?? [];
    expect(tiles.map((t) => [t.row, t.col, t.count])).toEqual([[0, 0, 496], [0, 1, 256], [1, 1, 28]]);
    const back = tiles.flatMap((t) => {
      const json = JSON.parse(gunzipSync(t.gzip).toString('utf8')) as { row: number; col: number; pairs: SystemPair[] };
      expect(brotliDecompressSync(t.brotli).equals(gunzipSync(t.gzip))).toBe(true);
      expect([json.row, json.col]).toEqual([t.row, t.col]);
      expect(t.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      return json.pairs;
    });
    const key = (p: SystemPair) => `${p.aSubmissionId}-${p.bSubmissionId}`;
    expect(back.map(key).sort()).toEqual(b.pairs.map(key).sort());
    // each pair as computed, field for field
    expect(back.find((p) => key(p) === 's39-s0')).toEqual(pair(39, 0));
  });
});
