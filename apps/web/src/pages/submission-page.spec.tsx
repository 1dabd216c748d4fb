import { render, screen } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { SubmissionPage } from './submission-page';
import { jsonResponse } from '../test/json-response';
import { resetGraphqlClient } from '../lib/graphql-client';

const submission = (over: Record<string, unknown>) => ({
  id: 's1', phaseId: 'p1', systemName: 'sys', description: '', isBaseline: false, isPrimary: false, moderation: 'NONE', moderationReason: null, duplicateOf: null, scoreHistory: [], status: 'QUEUED', error: null, retryNote: null,
  progressDone: 0, progressTotal: 10, createdAt: '2026-11-24T00:00:00Z', scoredAt: null, team: { id: 't1', name: 'team' }, corpusScores: [], ...over,
});

function answer(sub: unknown) {
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_url: string, init: { body: string }) => {
    const body = JSON.parse(init.body) as { query: string };
    const data = /submission\(/.test(body.query) ? { submission: sub } : { phase: { id: 'p1', name: 'test', task: { slug: 't', title: 'T', metrics: [] } } };
    return jsonResponse(({ data }));
  });
}

beforeEach(() => resetGraphqlClient());

describe('SubmissionPage', () => {
  it('says a submission is being retried after a worker stopped, with the attempt', async () => {
    answer(submission({ retryNote: 'retrying after a worker stopped (attempt 2 of 4)' }));
    render(<AuthProvider><SubmissionPage id="s1" /></AuthProvider>);
    expect((await screen.findByTestId('submission-retry')).textContent).toContain('retrying after a worker stopped (attempt 2 of 4)');
  });
  it('shows no retry note on a first attempt', async () => {
    answer(submission({}));
    render(<AuthProvider><SubmissionPage id="s1" /></AuthProvider>);
    await screen.findByTestId('submission-status');
    expect(screen.queryByTestId('submission-retry')).toBeNull();
  });
});
