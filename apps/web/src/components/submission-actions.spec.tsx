import { fireEvent, render, screen } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { SubmissionActions } from './submission-actions';

function serve(me: { role: string; organisedTaskIds: string[]; teams: { id: string; name: string }[] }) {
  const sent: string[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_url: string, init: { body: string }) => {
    if (init.body.includes('mutation')) sent.push(init.body);
    return jsonResponse({ data: { me: { id: 'u1', name: 'ada', ...me } } });
  });
  return sent;
}

const SUB = { id: 's1', isPrimary: false, isBaseline: false, systemName: 'sys-a', team: { id: 't1', name: 'Crew' }, phase: { lifecycleState: 'OPEN', stateDescription: 'open' } };

beforeEach(() => resetGraphqlClient());

describe('SubmissionActions', () => {
  it('shows a member of a disqualified submission no empty Actions box', async () => {
    serve({ role: 'PARTICIPANT', organisedTaskIds: [], teams: [{ id: 't1', name: 'Crew' }] });
    // Beside it, the team's other submission (not moderated) shows its actions: the account has loaded.
    const { container } = render(
      <AuthProvider>
        <SubmissionActions sub={{ ...SUB, moderation: 'DISQUALIFIED' }} onChange={() => undefined} />
        <SubmissionActions sub={{ ...SUB, id: 's2', moderation: 'NONE' }} onChange={() => undefined} />
      </AuthProvider>,
    );
    await screen.findByRole('button', { name: 'Mark as primary' }, { timeout: 5000 });
    expect(container.querySelectorAll('section')).toHaveLength(1);
  });

  it('asks an organiser to confirm a disqualification, stating what it does, before sending it', async () => {
    const sent = serve({ role: 'ORGANISER', organisedTaskIds: ['task'], teams: [] });
    render(
      <AuthProvider>
        <SubmissionActions sub={{ ...SUB, moderation: 'NONE' }} onChange={() => undefined} />
      </AuthProvider>,
    );
    fireEvent.change(await screen.findByLabelText('Reason shown to the team', {}, { timeout: 5000 }), { target: { value: 'used the references' } });
    fireEvent.click(screen.getByRole('button', { name: 'Disqualify…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('sys-a of Crew will be disqualified: shown on the board but not ranked');
    expect(sent.some((b) => b.includes('moderateSubmission'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Disqualify it' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.some((b) => b.includes('moderateSubmission') && b.includes('DISQUALIFIED'))).toBe(true);
  });
});
