import { P_VALUE_CORRECTIONS, SIGNIFICANCE_TESTS } from '../test/fixtures';
import { choosableTests } from './test-registry';
import { DEFAULT_STATE, parseLeaderboardState as parse, serializeLeaderboardState } from './url-state';

// The tests a view may choose, as the API's registry lists them.
const TESTS = choosableTests(SIGNIFICANCE_TESTS);
// The corrections, as the API's `pValueCorrections` lists them.
const CORRECTIONS = P_VALUE_CORRECTIONS.map((c) => c.value);
const parseLeaderboardState = (search: string) => parse(search, TESTS, CORRECTIONS);

describe('leaderboard URL state', () => {
  it('reads metric, aggregation, test and correction from the query string, case-insensitively', () => {
    expect(parseLeaderboardState('?phase=p1&metric=chrf&agg=bt&test=wilcoxon&correction=bh')).toEqual({
      phase: 'p1',
      metric: 'chrf',
      aggregation: 'bt',
      test: 'WILCOXON',
      correction: 'BH',
    });
  });

  it('falls back to the defaults for missing or unknown values', () => {
    expect(parseLeaderboardState('?agg=best!&test=magic&correction=bonferroni')).toEqual(DEFAULT_STATE);
  });

  it("accepts exactly the tests the API's registry offers (a test added there is read without a web change)", () => {
    expect(parse('?test=future_test', [...TESTS, 'FUTURE_TEST' as (typeof TESTS)[number]], CORRECTIONS).test).toBe('FUTURE_TEST');
    expect(parse('?test=wilcoxon', [], CORRECTIONS).test).toBeNull();
  });

  it("accepts exactly the corrections the API lists (one added to libs/ranking is read without a web change)", () => {
    expect(parse('?correction=bonferroni', TESTS, [...CORRECTIONS, 'BONFERRONI' as (typeof CORRECTIONS)[number]]).correction).toBe('BONFERRONI');
    expect(parse('?correction=bh', TESTS, []).correction).toBe(DEFAULT_STATE.correction);
  });

  it('reads any method key the board may have (the board decides; an unknown one shows its main ranking)', () => {
    expect(parseLeaderboardState('?agg=Mean_Win_Rate').aggregation).toBe('mean_win_rate');
  });

  it('leaves defaults out of links so a default leaderboard has a clean URL', () => {
    expect(serializeLeaderboardState(DEFAULT_STATE)).toBe('');
    expect(serializeLeaderboardState({ ...DEFAULT_STATE, aggregation: 'elo', correction: 'NONE' })).toBe('?agg=elo&correction=none');
  });

  it('round-trips every state through the URL', () => {
    const state = { phase: 'abc', metric: 'ter', aggregation: 'median' as const, test: 'SIGN' as const, correction: 'BH' as const };
    expect(parseLeaderboardState(serializeLeaderboardState(state))).toEqual(state);
  });

  it('keeps unrelated parameters such as the paired view systems', () => {
    const s = serializeLeaderboardState({ ...DEFAULT_STATE, metric: 'bleu' }, '?a=x&b=y&agg=bt');
    const q = new URLSearchParams(s);
    expect(q.get('a')).toBe('x');
    expect(q.get('b')).toBe('y');
    expect(q.get('metric')).toBe('bleu');
    expect(q.has('agg')).toBe(false);
  });
});
