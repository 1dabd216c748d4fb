import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { OrganisePage } from './organise-page';

// What the API answers (shapes of apps/api/schema.graphql): the registry's configurable metrics,
// a combined metric that is not configurable, and the task kinds with their default metrics.
const METRICS = [
  { name: 'bleu', displayName: 'BLEU', configurable: true },
  { name: 'chrf', displayName: 'chrF', configurable: true },
  { name: 'ter', displayName: 'TER', configurable: true },
  { name: 'rougeL', displayName: 'ROUGE-L', configurable: true },
  { name: 'nli', displayName: 'NLI', configurable: true },
  { name: 'combined', displayName: 'Combined', configurable: false },
].map((m) => ({ ...m, kind: 'sentence', higherIsBetter: true, rangeLow: 0, rangeHigh: 100 }));
const TASK_KINDS = [
  { name: 'mt', displayName: 'Machine translation', defaultMetrics: ['bleu', 'chrf', 'ter'] },
  { name: 'summarization', displayName: 'Summarization', defaultMetrics: ['rougeL', 'chrf'] },
  { name: 'data-to-text', displayName: 'Data-to-text', defaultMetrics: ['bleu', 'chrf', 'ter'] },
];
const SETTINGS = { dailyLimit: 5, totalLimit: 20, leaderboardBeforeClose: false, significanceResamples: null as number | null, significanceSeed: 12345, teamInstanceScores: false, hasSplit: false, split: null, commitment: null };
// The counts phaseImpact answers for the confirmations (what the example states).
const IMPACT = { phaseId: 'p1', submissions: 12, teams: 5, scored: 11, pending: 1, baselines: 1, moderated: 0, teamsWithoutPrimary: 2, rescorable: 12, instances: 3002 };
const TASK = {
  id: 't1',
  slug: 'wmt',
  title: 'WMT',
  registration: 'OPEN',
  kind: 'mt',
  sourceLang: 'de',
  targetLang: 'en',
  phases: [
    { id: 'p1', name: 'test', opensAt: '2026-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', isOpen: true, scoredCount: 0, state: 'open-hidden', lifecycleState: 'OPEN', stateDescription: 'open until 2099-01-01 00:00 UTC', closedEarlyAt: null as string | null, publishedAt: null as string | null, ...SETTINGS },
  ],
};
type PhaseFixture = (typeof TASK)['phases'][number];

/** Answers each GraphQL operation of the page by its name; returns the variables each mutation was sent. */
function api(phases: PhaseFixture[] = TASK.phases, afterUpdate?: PhaseFixture[], afterRegistration?: PhaseFixture[]) {
  const sent: Record<string, unknown[]> = {};
  const answers: Record<string, unknown> = {
    Me: { me: { id: 'u1', name: 'olga', role: 'ORGANISER', organisedTaskIds: [], teams: [] } },
    Tasks: { tasks: [{ ...TASK, phases }] },
    PhaseImpact: { phaseImpact: IMPACT },
    ClosePhase: { closePhase: { id: 'p1', closedEarlyAt: '2026-11-26T00:00:00Z' } },
    PublishPhase: { publishPhase: { id: 'p1', publishedAt: '2026-11-26T00:00:00Z' } },
    UpdatePhase: { updatePhase: { id: 'p1' } },
    Metrics: { metrics: METRICS },
    TaskKinds: { taskKinds: TASK_KINDS },
    Registrations: { registrations: [] },
    AuditLog: { auditLog: [] },
    CreateTask: { createTask: { id: 't2', slug: 'new-task' } },
    UpdateTaskRegistration: { updateTaskRegistration: { id: 't1', slug: 'wmt', registration: 'APPROVAL' } },
  };
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_url: string, init: RequestInit) => {
    const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { query: string; variables: unknown };
    const name = /(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? '';
    (sent[name] ??= []).push(body.variables);
    if (name === 'Tasks' && afterRegistration && sent['UpdateTaskRegistration']) return jsonResponse({ data: { tasks: [{ ...TASK, registration: 'APPROVAL', phases: afterRegistration }] } });
    if (name === 'Tasks' && afterUpdate && sent['UpdatePhase']) return jsonResponse({ data: { tasks: [{ ...TASK, phases: afterUpdate }] } });
    if (!(name in answers)) return jsonResponse({ data: null, errors: [{ message: `no answer for ${name} in this test`, extensions: { code: 'TEST' } }] });
    return jsonResponse({ data: answers[name] });
  });
  return sent;
}

const createForm = () => screen.getByRole('form', { name: 'Create a task' });
const checked = (form: HTMLElement) =>
  within(form)
    .getAllByRole('checkbox')
    .filter((c) => (c as HTMLInputElement).checked)
    .map((c) => c.parentElement?.textContent?.trim());

async function renderPage(phases?: PhaseFixture[], afterUpdate?: PhaseFixture[], afterRegistration?: PhaseFixture[]) {
  const sent = api(phases, afterUpdate, afterRegistration);
  render(
    <AuthProvider>
      <OrganisePage />
    </AuthProvider>,
  );
  await screen.findByRole('form', { name: 'Create a task' });
  await within(createForm()).findByRole('option', { name: 'Machine translation' });
  await within(createForm()).findByRole('checkbox', { name: 'BLEU' });
  await screen.findByRole('form', { name: 'Edit a task' });
  return sent;
}

beforeEach(() => {
  window.localStorage.clear();
  resetGraphqlClient();
});

describe('OrganisePage', () => {
  it("shows an organiser no team form: creating teams for others is the administrators' (ADR 0012)", async () => {
    await renderPage();
    expect(screen.queryByRole('heading', { name: 'Create a team' })).toBeNull();
  });

  it('shows every configurable metric exactly once in each form that picks metrics, and the combined metric in none', async () => {
    await renderPage();
    for (const formName of ['Create a task', 'Edit a task']) {
      const form = await screen.findByRole('form', { name: formName });
      await within(form).findByRole('checkbox', { name: 'BLEU' });
      expect(within(form).getAllByRole('group')).toHaveLength(1);
      for (const m of METRICS.filter((x) => x.configurable)) expect([formName, m.displayName, within(form).getAllByRole('checkbox', { name: m.displayName }).length]).toEqual([formName, m.displayName, 1]);
      expect(within(form).queryByRole('checkbox', { name: 'Combined' })).toBeNull();
    }
    expect(screen.getAllByRole('checkbox', { name: 'chrF' })).toHaveLength(2);
  });

  it("offers the API's task kinds by their labels and checks the chosen kind's default metrics", async () => {
    await renderPage();
    const kind = within(createForm()).getByRole('combobox', { name: 'Kind' });
    expect(within(kind).getAllByRole('option').map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual(TASK_KINDS.map((k) => [k.name, k.displayName]));
    expect(checked(createForm())).toEqual(['BLEU', 'chrF', 'TER']);
    fireEvent.change(kind, { target: { value: 'summarization' } });
    expect(checked(createForm())).toEqual(['chrF', 'ROUGE-L']);
  });

  it('creates the task with the chosen kind and metrics, in the order they were chosen', async () => {
    const sent = await renderPage();
    const form = createForm();
    fireEvent.change(within(form).getByLabelText('Slug (URL name)'), { target: { value: 'new-task' } });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'New' } });
    fireEvent.change(within(form).getByLabelText('Source language'), { target: { value: 'de' } });
    fireEvent.change(within(form).getByLabelText('Target language'), { target: { value: 'en' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Kind' }), { target: { value: 'data-to-text' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'TER' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'NLI' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create task' }));
    await screen.findByText('Created task new-task.');
    await waitFor(() => expect(sent['CreateTask']).toHaveLength(1));
    expect(sent['CreateTask']?.[0]).toMatchObject({
      input: { slug: 'new-task', kind: 'data-to-text', metrics: [{ key: 'bleu', name: 'bleu' }, { key: 'chrf', name: 'chrf' }, { key: 'nli', name: 'nli' }] },
    });
  });

  it('closes a phase only after a confirmation that states the real counts, and not at all on Cancel', async () => {
    const sent = await renderPage();
    const row = await screen.findByTestId('phase-row-test');
    fireEvent.click(within(row).getByRole('button', { name: 'Close now…' }));
    const dialog = await within(row).findByRole('alertdialog');
    await within(dialog).findByText(/12 submissions from 5 teams stay as they are/);
    expect(dialog.textContent).toContain('2 teams without one get their latest scored submission');
    expect(dialog.textContent).toContain('cannot be reopened');
    expect(sent['ClosePhase']).toBeUndefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(row).queryByRole('alertdialog')).toBeNull();
    expect(sent['ClosePhase']).toBeUndefined();
    fireEvent.click(within(row).getByRole('button', { name: 'Close now…' }));
    await within(row).findByText(/12 submissions from 5 teams/);
    fireEvent.click(within(row).getByRole('button', { name: 'Close test now' }));
    await screen.findByText('Closed test.');
    expect(sent['ClosePhase']).toEqual([{ id: 'p1' }]);
  });

  it('says before publishing how many submissions of how many teams become public, with references', async () => {
    const closed = { ...TASK.phases[0], lifecycleState: 'CLOSED', state: 'closed-unpublished', stateDescription: 'closed early on 2026-11-25 by olga', closedEarlyAt: '2026-11-25T00:00:00Z' } as PhaseFixture;
    const sent = await renderPage([closed]);
    const row = await screen.findByTestId('phase-row-test');
    fireEvent.click(within(row).getByRole('button', { name: 'Publish results…' }));
    const dialog = await within(row).findByRole('alertdialog');
    await within(dialog).findByText(/12 submissions from 5 teams will become public, with references of all 3,002 instances/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish test (final)' }));
    await screen.findByText('Published test.');
    expect(sent['PublishPhase']).toEqual([{ id: 'p1' }]);
  });

  it('saves changed limits and the board visibility of a phase, sending only what changed', async () => {
    const sent = await renderPage();
    const form = await screen.findByTestId('phase-settings');
    fireEvent.change(within(form).getByLabelText('Submissions per team per day'), { target: { value: '3' } });
    fireEvent.click(within(form).getByTestId('board-visible'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save phase settings' }));
    await within(form).findByText('Saved the settings of test.');
    expect(sent['UpdatePhase']).toEqual([{ id: 'p1', input: { dailyLimit: 3, leaderboardBeforeClose: true } }]);
    expect(sent['SetPhaseSignificanceSettings']).toBeUndefined();
  });

  it('keeps the "Saved" message when the reload after saving brings the stored settings (which remounts the form)', async () => {
    const stored = { ...TASK.phases[0], dailyLimit: 3 } as PhaseFixture;
    const sent = await renderPage(undefined, [stored]);
    const form = await screen.findByTestId('phase-settings');
    fireEvent.change(within(form).getByLabelText('Submissions per team per day'), { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save phase settings' }));
    await waitFor(() => expect(sent['Tasks']?.length).toBeGreaterThanOrEqual(2));
    // The form shows what the reload brought, and the message is still there.
    await waitFor(() => expect(within(screen.getByTestId('phase-settings')).getByLabelText<HTMLInputElement>('Submissions per team per day').value).toBe('3'));
    await within(screen.getByTestId('phase-settings')).findByText('Saved the settings of test.');
    await new Promise((r) => setTimeout(r, 50));
    expect(within(screen.getByTestId('phase-settings')).getByText('Saved the settings of test.')).toBeTruthy();
  });

  it('keeps the limits being typed when an unrelated action reloads the tasks, and shows a limit someone changed meanwhile', async () => {
    // The reload brings a scored submission and a test-set commitment (fields of the phase the form
    // does not edit) and a total limit changed elsewhere (25): before, any change of the phase
    // remounted the form and wiped what was typed.
    const reloaded = { ...TASK.phases[0], scoredCount: 1, stateDescription: 'open until 2099-01-01 00:00 UTC, 1 scored', totalLimit: 25 } as PhaseFixture;
    const sent = await renderPage(undefined, undefined, [reloaded]);
    const form = await screen.findByTestId('phase-settings');
    const daily = within(form).getByLabelText<HTMLInputElement>('Submissions per team per day');
    fireEvent.change(daily, { target: { value: '9' } });
    fireEvent.click(within(await screen.findByTestId('registrations-wmt')).getByRole('button', { name: 'Require approval' }));
    await screen.findByText('Changed the registration.');
    await waitFor(() => expect(within(screen.getByTestId('phase-settings')).getByLabelText<HTMLInputElement>('In total').value).toBe('25'));
    expect(within(screen.getByTestId('phase-settings')).getByLabelText<HTMLInputElement>('Submissions per team per day').value).toBe('9');
    fireEvent.click(within(screen.getByTestId('phase-settings')).getByRole('button', { name: 'Save phase settings' }));
    await screen.findByText('Saved the settings of test.');
    expect(sent['UpdatePhase']).toEqual([{ id: 'p1', input: { dailyLimit: 9 } }]);
  });

  it('starts the upload form on the newest open or scheduled phase, not on the first (demo) phase', async () => {
    const next = { ...TASK.phases[0], id: 'p2', name: 'final', opensAt: '2098-01-01T00:00:00Z', lifecycleState: 'SCHEDULED', state: 'open-hidden' } as PhaseFixture;
    await renderPage([TASK.phases[0] as PhaseFixture, next]);
    const upload = await screen.findByRole('form', { name: 'Upload a test set' });
    expect(within(upload).getByRole<HTMLSelectElement>('combobox', { name: 'Phase' }).value).toBe('p2');
  });
});
