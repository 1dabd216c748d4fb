import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TASK_BUNDLE_FORMAT } from '@podium/contracts';
import { makeTaskCommand } from './task.command';
import { defined } from '../../../../test/support/defined';

/** A minimal valid bundle: one phase with a test set of one instance. */
const BUNDLE = {
  format: TASK_BUNDLE_FORMAT,
  version: 1,
  task: { slug: 'demo', title: 'Demo', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf', options: {} }] },
  testSets: [{ name: 'ts', instances: [{ id: 'a', source: 's', references: ['r'] }] }],
  phases: [{ name: 'test', opensAt: '2026-01-01T00:00:00Z', closesAt: '2026-02-01T00:00:00Z', dailyLimit: 1, totalLimit: 1, leaderboardBeforeClose: true, testSet: 'ts' }],
  submissions: [],
};

function fakeApi(answer: unknown, status = 200) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const impl = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { calls, impl };
}

describe('podium task export / import', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'podium-task-cli-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exports with the token to FILE (submissions when asked) and prints what the bundle holds', async () => {
    const api = fakeApi(BUNDLE);
    const out = path.join(dir, 'b.json');
    const printed = await makeTaskCommand(api.impl).run(['export', '--url', 'http://x/', '--task', 'demo', '--out', out, '--with-submissions', '--token', 't0k']);
    expect(printed).toEqual({ file: out, bytes: Buffer.byteLength(JSON.stringify(BUNDLE)), task: 'demo', phases: 1, testSets: 1, instances: 1, submissions: 0 });
    expect(defined(api.calls[0]).url).toBe('http://x/api/tasks/demo/bundle.json?submissions=1');
    expect((defined(api.calls[0]).init?.headers as Record<string, string>)['authorization']).toBe('Bearer t0k');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(BUNDLE);
  });

  it('says what the server answered when it refuses', async () => {
    const api = fakeApi({ error: "only organisers of this task may do this; 'pia' does not organise it" }, 403);
    await expect(makeTaskCommand(api.impl).run(['export', '--url', 'http://x', '--task', 'demo', '--out', path.join(dir, 'b.json'), '--token', 't'])).rejects.toThrow(
      "server answered 403: only organisers of this task may do this; 'pia' does not organise it",
    );
  });

  it('checks the file before sending it, naming every problem, and sends nothing then', async () => {
    const api = fakeApi({});
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...BUNDLE, phases: [{ ...BUNDLE.phases[0], testSet: 'nope', closesAt: '2025-01-01T00:00:00Z' }] }));
    await expect(makeTaskCommand(api.impl).run(['import', file, '--url', 'http://x', '--token', 't'])).rejects.toThrow(
      `${file} is not a task bundle this podium can import:\n  phases[0].closesAt: phase 'test' closes before it opens\n  phases[0].testSet: phase 'test' names test set 'nope', which the bundle does not hold`,
    );
    writeFileSync(file, '{ not json');
    await expect(makeTaskCommand(api.impl).run(['import', file, '--url', 'http://x', '--token', 't'])).rejects.toThrow(`${file} is not JSON`);
    expect(api.calls).toEqual([]);
  });

  it('posts a valid bundle as it is, under --slug when given, and prints the answer', async () => {
    const answer = { taskId: 'id', slug: 'demo-2', phases: [{ id: 'p', name: 'test' }], submissions: 0, teamsCreated: [] };
    const api = fakeApi(answer, 201);
    const file = path.join(dir, 'b.json');
    writeFileSync(file, JSON.stringify(BUNDLE));
    expect(await makeTaskCommand(api.impl).run(['import', file, '--url', 'http://x', '--slug', 'demo-2', '--token', 't'])).toEqual(answer);
    const call = defined(api.calls[0]);
    expect([call.url, call.init?.method, call.init?.body]).toEqual(['http://x/api/tasks/import?slug=demo-2', 'POST', JSON.stringify(BUNDLE)]);
  });

  it('asks for what is missing', async () => {
    const task = makeTaskCommand(fakeApi({}).impl);
    await expect(task.run(['export', '--url', 'http://x', '--out', 'f', '--token', 't'])).rejects.toThrow('--task is required');
    await expect(task.run(['export', '--url', 'http://x', '--task', 'd', '--token', 't'])).rejects.toThrow('--out FILE is required');
    await expect(task.run(['import', '--url', 'http://x', '--token', 't'])).rejects.toThrow('give exactly one FILE');
    await expect(task.run(['publish'])).rejects.toThrow("unknown task action 'publish' (expected: export, import)");
  });
});
