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
const TASK = {
  id: 't1',
  slug: 'wmt',
  title: 'WMT',
  registration: 'OPEN',
  kind: 'mt',
  sourceLang: 'de',
  targetLang: 'en',
  phases: [
    { id: 'p1', name: 'test', opensAt: '2026-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', isOpen: true, scoredCount: 0, state: 'open-hidden', lifecycleState: 'OPEN', stateDescription: 'open until 2099-01-01 00:00 UTC', closedEarlyAt: null, publishedAt: null },
  ],
};

/** Answers each GraphQL operation of the page by its name; returns the variables each mutation was sent. */
function api() {
  const sent: Record<string, unknown[]> = {};
  const answers: Record<string, unknown> = {
    Me: { me: { id: 'u1', name: 'olga', role: 'ORGANISER', organisedTaskIds: [], teams: [] } },
    Tasks: { tasks: [TASK] },
    Metrics: { metrics: METRICS },
    TaskKinds: { taskKinds: TASK_KINDS },
    Registrations: { registrations: [] },
    AuditLog: { auditLog: [] },
    CreateTask: { createTask: { id: 't2', slug: 'new-task' } },
  };
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (_url: string, init: RequestInit) => {
    const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { query: string; variables: unknown };
    const name = /(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? '';
    (sent[name] ??= []).push(body.variables);
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

async function renderPage() {
  const sent = api();
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
});
