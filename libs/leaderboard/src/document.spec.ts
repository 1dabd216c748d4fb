import { encodeLeaderboard, leaderboardJson, parseLeaderboardDocument, parseLeaderboardDocumentLazily, reviseStoredBoard, storedBoardMetric, upgradeStoredBoard } from './document';
import { PairedTest, PValueCorrection, type Leaderboard } from './leaderboard.types';

// Issue #28: the stored document ends with its pairs, so the systems can be read without them.
function board(pairs: number): Leaderboard {
  const pair = (q: number) => ({
    aSubmissionId: `a${q}`, bSubmissionId: `b${q}`, a: `sys "pairs":[ ${q}`, b: 'B', wins: q, losses: 1, ties: 0, pBt: 0.5, medianDiff: 0, meanDiff: 0.1, p: 0.2, pAdjusted: 0.3, pTest: 'ttest',
    testResults: [
      { test: 'ttest', p: 0.2 },
      { test: 'wilcoxon', p: null },
      { test: 'sign', p: 0.4 },
      { test: 'mood', p: 0.5 },
      { test: 'bootstrap', p: 0.6 },
      { test: 'ar', p: 0.7 },
    ],
    significant: { mean: false, median: false, bt: false, corpus: null },
  });
  return {
    phaseId: 'p', metric: 'bleu', higherIsBetter: true, availableMetrics: ['bleu'], test: PairedTest.TTEST, correction: PValueCorrection.HOLM, seed: 1, alpha: 0.05,
    clusterDefinition: 'c', resamples: 200, resamplesChosen: true, smallestReachableP: 0.01, significanceWarnings: [], mainAggregation: 'mean', corpusSignature: '', clusterTests: [], methods: [],
    btFiniteMle: true, btNote: null, btComponents: [], metricSignature: '', instanceCount: 3, scoredOn: null,
    systems: [{ system: 'A', notes: '"pairs":[' } as never], pairs: Array.from({ length: pairs }, (_, q) => pair(q)), disagreement: null, notes: ['a note with ,"pairs":[ inside'],
    updating: false, stamp: 's', computedAt: new Date('2026-11-26T00:00:00.000Z'),
  };
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('stored leaderboard document', () => {
  it.each([0, 3])('puts the pairs last and reads the same board lazily as whole (%i pairs)', (n) => {
    const { body } = encodeLeaderboard(board(n));
    expect(body.endsWith(`${JSON.stringify(leaderboardJson(board(n))['pairs'])}}`)).toBe(true);
    const lazy = parseLeaderboardDocumentLazily(utf8(body));
    // the pairs are a getter until read
    expect(typeof Object.getOwnPropertyDescriptor(lazy, 'pairs')?.get).toBe('function');
    expect(lazy.systems).toEqual(board(n).systems);
    expect(lazy.pairs).toEqual(board(n).pairs);
    expect({ ...lazy }).toEqual(parseLeaderboardDocument(body));
  });

  it('parses a document with the pairs elsewhere (stored before) whole, also when it ends like an array', () => {
    const { pairs, disagreement, notes, updating, stamp, computedAt, ...rest } = leaderboardJson(board(2));
    // the order before: …, pairs, disagreement, notes, updating, stamp, computedAt
    const before = JSON.stringify({ ...rest, pairs, disagreement, notes, updating, stamp, computedAt });
    expect(parseLeaderboardDocumentLazily(utf8(before))).toEqual(parseLeaderboardDocument(before));
    // the same keys, the notes last: the text ends with ']}' and still holds keys after the pairs
    const arrayLast = JSON.stringify({ ...rest, pairs, disagreement, updating, stamp, computedAt, notes });
    const lazy = parseLeaderboardDocumentLazily(utf8(arrayLast));
    expect(lazy).toEqual(parseLeaderboardDocument(arrayLast));
    expect(lazy.notes).toEqual(['a note with ,"pairs":[ inside']);
  });

  describe('reviseStoredBoard (the api\'s updating and earlier variants)', () => {
    const updating = (b: Record<string, unknown>) => ({ ...b, updating: true });
    const earlier = (b: Record<string, unknown>) => ({ ...b, updating: false, notes: [...(b['notes'] as string[]), 'earlier'] });
    const whole = (body: string, revise: (b: Record<string, unknown>) => Record<string, unknown>) => JSON.stringify(revise(upgradeStoredBoard(JSON.parse(body) as Record<string, unknown>)));

    it.each([0, 3])('writes the same bytes as parsing the whole document, the pairs kept as text (%i pairs)', (n) => {
      const { body } = encodeLeaderboard(board(n));
      for (const revise of [updating, earlier]) {
        const revised = reviseStoredBoard(utf8(body), revise);
        expect(revised).not.toBeNull();
        expect(revised?.toString('utf8')).toBe(whole(body, revise));
      }
      expect(JSON.parse(reviseStoredBoard(utf8(body), updating)?.toString('utf8') ?? '')).toMatchObject({ updating: true, notes: ['a note with ,"pairs":[ inside'] });
    });

    it('leaves to the whole parse a document it cannot take: pairs not last, no methods, pairs without test results', () => {
      const { pairs, disagreement, notes, updating: u, stamp, computedAt, ...rest } = leaderboardJson(board(2));
      const pairsNotLast = JSON.stringify({ ...rest, pairs, disagreement, notes, updating: u, stamp, computedAt });
      expect(reviseStoredBoard(utf8(pairsNotLast), updating)).toBeNull();
      const { methods: _methods, ...lb2 } = leaderboardJson(board(2));
      expect(reviseStoredBoard(utf8(JSON.stringify(lb2)), updating)).toBeNull();
      const withoutResults = leaderboardJson(board(2));
      const oldPairs = (withoutResults['pairs'] as Record<string, unknown>[]).map(({ testResults: _t, ...p }) => ({ ...p, tests: { ttest: 0.2 } }));
      expect(reviseStoredBoard(utf8(JSON.stringify({ ...withoutResults, pairs: oldPairs })), updating)).toBeNull();
    });
  });

  it('reads the metric off the first keys, escapes and all, and gives null for a document that begins otherwise', () => {
    expect(storedBoardMetric(utf8(encodeLeaderboard(board(3)).body))).toBe('bleu');
    const odd = { ...board(1), metric: 'combined:nli"x\\y+chrf' };
    expect(storedBoardMetric(utf8(encodeLeaderboard(odd).body))).toBe('combined:nli"x\\y+chrf');
    const { phaseId: _p, ...noPhase } = leaderboardJson(board(1));
    expect(storedBoardMetric(utf8(JSON.stringify({ ...noPhase, phaseId: 'p' })))).toBeNull();
    expect(storedBoardMetric(utf8(''))).toBeNull();
    // a metric past the first 4 KB: null, and the caller parses the document
    expect(storedBoardMetric(utf8(encodeLeaderboard({ ...board(1), metric: 'm'.repeat(5000) }).body))).toBeNull();
  });

  it('reads and revises the bytes of a document with multi-byte text, also from a Uint8Array inside a larger buffer', () => {
    const names = { ...board(3), metric: 'chrF++ «é»', notes: ['Ünïcödé ,"pairs":[ 日本語 🎉'], systems: [{ system: 'Système 🎉', notes: '"pairs":[' } as never] };
    names.pairs = names.pairs.map((p, q) => ({ ...p, a: `système ${q} — ✓` }));
    const { body } = encodeLeaderboard(names);
    const outer = Buffer.concat([Buffer.from('xx'), utf8(body), Buffer.from('yy')]);
    const view = new Uint8Array(outer.buffer, outer.byteOffset + 2, outer.length - 4);
    const lazy = parseLeaderboardDocumentLazily(view);
    expect({ ...lazy }).toEqual(parseLeaderboardDocument(body));
    expect(storedBoardMetric(view)).toBe('chrF++ «é»');
    const updating = (b: Record<string, unknown>) => ({ ...b, updating: true });
    expect(reviseStoredBoard(view, updating)?.toString('utf8')).toBe(JSON.stringify(updating(JSON.parse(body) as Record<string, unknown>)));
  });
});
