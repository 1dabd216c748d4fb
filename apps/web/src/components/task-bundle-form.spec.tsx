import { fireEvent, render, screen } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { TaskBundleForm } from './task-bundle-form';
import type { TasksQuery } from '../graphql/generated';

const TASKS = [
  { id: 't1', slug: 'wmt', title: 'WMT' },
  { id: 't2', slug: 'newest', title: 'Newest' },
] as unknown as TasksQuery['tasks'];

/** The import route answers `answer` with `status`; GraphQL (who is signed in) no one. */
function api(answer: unknown, status: number) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return url.startsWith('/api/tasks/import') ? jsonResponse(answer, status) : jsonResponse({ data: { me: null } });
  });
  return calls;
}

function renderForm(onDone = jest.fn()) {
  render(
    <AuthProvider>
      <TaskBundleForm tasks={TASKS} onDone={onDone} />
    </AuthProvider>,
  );
  return onDone;
}

function chooseFile(text: string) {
  const input = screen.getByLabelText('Bundle file');
  // jsdom's File has no text(): the browser's is given here.
  const file = Object.assign(new File([text], 'bundle.json', { type: 'application/json' }), { text: async () => text });
  fireEvent.change(input, { target: { files: [file] } });
}

beforeEach(() => resetGraphqlClient());

describe('TaskBundleForm', () => {
  it('links the export of the newest task, with its submissions when ticked', () => {
    api({}, 200);
    renderForm();
    const link = () => screen.getByTestId('export-bundle').getAttribute('href');
    expect(link()).toBe('/api/tasks/newest/bundle.json');
    fireEvent.change(screen.getByLabelText('Task', { exact: true }), { target: { value: 'wmt' } });
    fireEvent.click(screen.getByLabelText('Include submissions with their outputs'));
    expect(link()).toBe('/api/tasks/wmt/bundle.json?submissions=1');
  });

  it('imports the chosen file under the slug given, with the header that marks a same-origin request, and says what was created', async () => {
    const calls = api({ taskId: 'x', slug: 'wmt-copy', phases: [{ id: 'p', name: 'test' }], submissions: 2, teamsCreated: ['Team B'] }, 201);
    const onDone = renderForm();
    chooseFile('{"format":"podium-task-bundle"}');
    fireEvent.change(screen.getByLabelText('Slug here (optional)'), { target: { value: 'wmt-copy' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Import a task bundle' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('Imported task wmt-copy with 1 phase; 2 submissions are queued for scoring here. Teams created (no members yet): Team B.');
    const post = calls.find((c) => c.url.startsWith('/api/tasks/import'));
    expect(post?.url).toBe('/api/tasks/import?slug=wmt-copy');
    expect(post?.init?.body).toBe('{"format":"podium-task-bundle"}');
    expect((post?.init?.headers as Record<string, string>)['x-podium-request']).toBe('web');
    expect(onDone).toHaveBeenCalled();
  });

  it("shows the server's refusal in its own words", async () => {
    api({ error: "a task with slug 'wmt' already exists on this Podium; import it under another slug", code: 'CONFLICT' }, 409);
    renderForm();
    chooseFile('{}');
    fireEvent.submit(screen.getByRole('form', { name: 'Import a task bundle' }));
    expect((await screen.findByRole('alert')).textContent).toContain("a task with slug 'wmt' already exists on this Podium; import it under another slug");
  });
});
