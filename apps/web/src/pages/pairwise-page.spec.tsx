import { render, screen } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { PairwisePage } from './pairwise-page';

// What the API answers a participant for a hidden board (apps/api/src/common/visibility.ts's words).
const HIDDEN = "the leaderboard of phase 'test' is hidden until the organisers publish the results; only organisers see them before";

beforeEach(() => {
  resetGraphqlClient();
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init?: { body?: string }) => {
    if (url.includes('/leaderboard.json')) return jsonResponse({ error: HIDDEN, code: 'FORBIDDEN' }, 403);
    if ((init?.body ?? '').includes('query Me')) return jsonResponse({ data: { me: { id: 'u1', name: 'ada', role: 'PARTICIPANT', organisedTaskIds: [], teams: [] } } });
    return jsonResponse({ data: { phase: { id: 'p1', name: 'test', task: { id: 't1', slug: 'wmt', title: 'WMT', metrics: [] } } } });
  });
});

describe('PairwisePage', () => {
  it('says why a hidden board cannot be compared and what to do instead, with no retry and no empty metric choice', async () => {
    render(
      <AuthProvider>
        <PairwisePage phaseId="p1" />
      </AuthProvider>,
    );
    const note = await screen.findByTestId('forbidden');
    expect(note.textContent).toContain("The leaderboard of phase 'test' is hidden until the organisers publish the results");
    expect(note.textContent).toContain('Team page');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /metric/i })).toBeNull();
  });
});
