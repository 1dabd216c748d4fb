import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { GraphqlProvider } from './auth';
import { ApiError, resetGraphqlClient } from './graphql-client';
import { leaderboardJsonUrl } from './leaderboard-request';
import { fetchLeaderboard, parseLeaderboard, useLeaderboard } from './use-leaderboard';
import { METHODS, pair, row } from '../test/fixtures';
import { jsonResponse } from '../test/json-response';
import { defined } from '../../../../test/support/defined';

/** The parts of a stored board the pages need (a real one has every field of the LeaderboardFields fragment). */
const BOARD = { phaseId: 'p1', metric: 'bleu', updating: false, availableMetrics: ['bleu'], methods: METHODS, systems: [row('A', { mean: 1 }), row('B', { mean: 2 })], pairs: [pair('A', 'B')] };

function answer(body: unknown, status = 200) {
  const fetchMock = jest.fn(async (_url: string, _init: RequestInit) => jsonResponse(body, status));
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return fetchMock;
}

const wrapper = ({ children }: { children: ReactNode }) => <GraphqlProvider>{children}</GraphqlProvider>;

beforeEach(() => {
  resetGraphqlClient();
});

describe('leaderboardJsonUrl', () => {
  it('puts the GraphQL arguments in the query string, enums in lower case', () => {
    expect(leaderboardJsonUrl('p 1', { metric: 'combined:nli+chrf', test: 'WILCOXON', correction: 'BH', allSubmissions: true })).toBe(
      '/api/phases/p%201/leaderboard.json?metric=combined%3Anli%2Bchrf&test=wilcoxon&correction=bh&submissions=all',
    );
    expect(leaderboardJsonUrl('p1', { metric: null, test: null, correction: 'HOLM' })).toBe('/api/phases/p1/leaderboard.json?correction=holm');
    expect(leaderboardJsonUrl('p1', {})).toBe('/api/phases/p1/leaderboard.json');
  });
});

describe('fetchLeaderboard', () => {
  it('GETs the document with the session cookie, leaving revalidation to the browser cache', async () => {
    const fetchMock = answer(BOARD);
    const board = await fetchLeaderboard('/api/phases/p1/leaderboard.json');
    expect(board.systems.map((s) => s.system)).toEqual(['A', 'B']);
    const [url, init] = defined(fetchMock.mock.calls[0]);
    expect(url).toBe('/api/phases/p1/leaderboard.json');
    expect(init.method).toBeUndefined();
    expect(init.credentials).toBe('same-origin');
    // Default cache mode: the browser sends If-None-Match and turns a 304 into the cached 200.
    expect(init.cache).toBeUndefined();
    expect(init.headers).toEqual({ accept: 'application/json' });
  });

  it('throws the API’s message and code for an error status (REST error body)', async () => {
    answer({ error: "phase p1's leaderboard is visible to organisers until the phase closes", code: 'FORBIDDEN' }, 403);
    const error = await fetchLeaderboard('/api/phases/p1/leaderboard.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("phase p1's leaderboard is visible to organisers until the phase closes");
    expect((error as ApiError).code).toBe('FORBIDDEN');
    expect((error as ApiError).status).toBe(403);
  });

  it('names the status when an error has no readable body', async () => {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async () => ({ ok: false, status: 502, json: async () => JSON.parse('<html>') as unknown }));
    await expect(fetchLeaderboard('/x')).rejects.toThrow('The server answered 502 without a readable body.');
  });

  it('says the server cannot be reached when fetch fails', async () => {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(fetchLeaderboard('/x')).rejects.toThrow('The server cannot be reached');
  });

  it('rejects a body that is not a board, saying what is wrong', async () => {
    answer({ ...BOARD, systems: 'none', updating: 'no' });
    await expect(fetchLeaderboard('/x')).rejects.toThrow('The server answered with a leaderboard this page cannot read: updating is not a boolean; systems is not an array.');
  });
});

describe('parseLeaderboard', () => {
  it('accepts a board and rejects other JSON', () => {
    expect(parseLeaderboard(BOARD).phaseId).toBe('p1');
    expect(() => parseLeaderboard([BOARD])).toThrow('(not a JSON object)');
    expect(() => parseLeaderboard({ ...BOARD, phaseId: 1 })).toThrow('phaseId is not a string');
    expect(() => parseLeaderboard({ ...BOARD, pairs: [{ aSubmissionId: 'A' }] })).toThrow('a pair lacks aSubmissionId, bSubmissionId or significant');
    expect(() => parseLeaderboard({ ...BOARD, systems: [{ system: 'A' }] })).toThrow('a system lacks submissionId, system or values');
  });
});

describe('useLeaderboard', () => {
  it('loads, then answers the board', async () => {
    const fetchMock = answer(BOARD);
    const { result } = renderHook(() => useLeaderboard('p1', { metric: 'bleu', correction: 'HOLM' }), { wrapper });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.data?.metric).toBe('bleu'));
    expect(result.current).toMatchObject({ loading: false, error: null });
    expect(defined(fetchMock.mock.calls[0])[0]).toBe('/api/phases/p1/leaderboard.json?metric=bleu&correction=holm');
  });

  it('answers the API’s error, and the board again after refetch', async () => {
    answer({ error: 'phase p1 not found', code: 'NOT_FOUND' }, 404);
    const { result } = renderHook(() => useLeaderboard('p1', {}), { wrapper });
    await waitFor(() => expect(result.current.error?.message).toBe('phase p1 not found'));
    expect(result.current.data).toBeNull();
    answer(BOARD);
    act(() => result.current.refetch());
    await waitFor(() => expect(result.current.data?.phaseId).toBe('p1'));
    expect(result.current.error).toBeNull();
  });

  it('answers an error for an invalid document', async () => {
    answer({ phaseId: 'p1' });
    const { result } = renderHook(() => useLeaderboard('p1', {}), { wrapper });
    await waitFor(() => expect(result.current.error?.message).toMatch(/cannot read: metric is not a string; updating is not a boolean/));
  });

  it('keeps the previous board while other arguments load, and asks again when the key changes', async () => {
    const fetchMock = answer(BOARD);
    const { result, rerender } = renderHook(({ test, k }: { test: string; k: string }) => useLeaderboard('p1', { test }, { key: k }), { wrapper, initialProps: { test: 'TTEST', k: '0' } });
    await waitFor(() => expect(result.current.data).not.toBeNull());
    rerender({ test: 'SIGN', k: '0' });
    expect(result.current.loading).toBe(true);
    expect(result.current.data?.phaseId).toBe('p1');
    await waitFor(() => expect(result.current.loading).toBe(false));
    rerender({ test: 'SIGN', k: '1' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/phases/p1/leaderboard.json?test=ttest', '/api/phases/p1/leaderboard.json?test=sign', '/api/phases/p1/leaderboard.json?test=sign']);
  });
});
