import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { TeamPage } from './team-page';
import { jsonResponse } from '../test/json-response';
import { resetGraphqlClient } from '../lib/graphql-client';

const me = { id: 'u1', name: 'ada', role: 'PARTICIPANT', teams: [{ id: 't1', name: 'Crew' }] };

/** Answers the page's queries; records every mutation sent (operation text and variables). */
const SUBMISSION = {
  id: 's1', systemName: 'sys-a', status: 'SCORED', isPrimary: true, isBaseline: false, moderation: 'NONE', moderationReason: null, createdAt: '2026-11-25T00:00:00Z',
  corpusScores: [{ metric: 'bleu', value: 23.456, part: 'all' }, { metric: 'chrf', value: 51.2, part: 'all' }],
  phase: { id: 'p1', name: 'test', task: { slug: 'wmt', title: 'WMT' } },
};

function serve(team: { ownerId: string | null }, who: typeof me = me) {
  const sent: { query: string; variables: Record<string, unknown> }[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_url: string, init: { body: string }) => {
    const body = JSON.parse(init.body) as { query: string; variables: Record<string, unknown> };
    if (body.query.startsWith('mutation')) sent.push(body);
    let data: Record<string, unknown> = { me: who };
    if (/team\(id/.test(body.query)) data = { team: { id: 't1', name: 'Crew', inviteCode: 'AAAAAAAAAAAAAAAAAAAAAA', createdAt: '2026-11-25T00:00:00Z', members: [{ id: 'u1', name: 'ada' }, { id: 'u2', name: 'bo' }], ...team } };
    else if (/teamSubmissions/.test(body.query)) data = { teamSubmissions: [SUBMISSION] };
    else if (/joinTeam/.test(body.query)) data = { joinTeam: { id: 't2', name: 'Second' } };
    else if (/myTokens/.test(body.query)) data = { myTokens: [] };
    else if (/rotateInviteCode/.test(body.query)) data = { rotateInviteCode: { id: 't1', inviteCode: 'BBBBBBBBBBBBBBBBBBBBBB' } };
    else if (/removeTeamMember|leaveTeam/.test(body.query)) data = { removeTeamMember: { id: 't1' }, leaveTeam: { id: 't1' } };
    return jsonResponse({ data });
  });
  return sent;
}

beforeEach(() => {
  resetGraphqlClient();
  jest.spyOn(window, 'confirm').mockReturnValue(true);
});

describe('TeamPage', () => {
  it("lets the owner remove another member, and anyone replace the code or leave", async () => {
    const sent = serve({ ownerId: 'u1' });
    render(<AuthProvider><TeamPage /></AuthProvider>);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bo' }, { timeout: 5000 }));
    await waitFor(() => expect(sent.some((m) => m.query.includes('removeTeamMember') && m.variables['userId'] === 'u2')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Remove ada' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Replace code' }));
    await waitFor(() => expect(sent.some((m) => m.query.includes('rotateInviteCode'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    await waitFor(() => expect(sent.some((m) => m.query.includes('leaveTeam') && m.variables['teamId'] === 't1')).toBe(true));
  });

  it('offers no removal to a member who is not the owner', async () => {
    serve({ ownerId: 'u2' });
    render(<AuthProvider><TeamPage /></AuthProvider>);
    await screen.findByRole('button', { name: 'Leave team' }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
  });

  it("shows each submission's corpus scores on the team page", async () => {
    serve({ ownerId: 'u1' });
    render(<AuthProvider><TeamPage /></AuthProvider>);
    const cell = await screen.findByTestId('team-submission-scores', {}, { timeout: 5000 });
    expect(cell.textContent).toBe('bleu 23.46 · chrf 51.20');
  });

  it('hides Create a team and Join a team inside a team until asked for another', async () => {
    serve({ ownerId: 'u1' });
    render(<AuthProvider><TeamPage /></AuthProvider>);
    await screen.findByRole('button', { name: 'Leave team' }, { timeout: 5000 });
    expect(screen.queryByRole('heading', { name: 'Create a team' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Join a team' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create or join another team' }));
    expect(screen.getByRole('heading', { name: 'Join a team' })).toBeTruthy();
  });

  it('says which team a successful join joined', async () => {
    serve({ ownerId: 'u1' }, { ...me, teams: [] });
    render(<AuthProvider><TeamPage /></AuthProvider>);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Invite code' }, { timeout: 5000 }), { target: { value: 'CODE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Join team' }));
    expect((await screen.findByTestId('team-done')).textContent).toBe('You joined team Second.');
  });
});
