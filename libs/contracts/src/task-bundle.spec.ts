import { TASK_BUNDLE_FORMAT, taskBundleProblems, type TaskBundleInput } from './task-bundle';

/** A valid bundle: one test set of two instances, one phase, one submission. */
function bundle(): TaskBundleInput {
  return {
    format: TASK_BUNDLE_FORMAT,
    version: 1,
    task: { slug: 'demo', title: 'Demo', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf', options: {} }] },
    testSets: [{ name: 'ts', instances: [{ id: 'a', source: 's1', references: ['r1'] }, { id: 'b', source: 's2', references: ['r2'] }] }],
    phases: [{ name: 'test', opensAt: '2026-01-01T00:00:00.000Z', closesAt: '2026-02-01T00:00:00.000Z', dailyLimit: 3, totalLimit: 10, leaderboardBeforeClose: true, testSet: 'ts' }],
    submissions: [{ phase: 'test', team: 'Team A', systemName: 'sys', outputs: ['o1', 'o2'], isPrimary: true }],
  };
}

describe('taskBundleProblems', () => {
  it('accepts a well-formed bundle and fills the defaults', () => {
    const { bundle: b, problems } = taskBundleProblems(bundle());
    expect(problems).toEqual([]);
    expect(b?.submissions[0]).toEqual(expect.objectContaining({ description: '', paperUrl: null, moderation: 'NONE', isBaseline: false }));
    expect(b?.phases[0]).toEqual(expect.objectContaining({ significanceSeed: 12345, significanceResamples: null, split: null }));
  });

  it('says when the file is not a bundle at all', () => {
    expect(taskBundleProblems({ hello: 1 }).problems[0]).toBe(`format: not a task bundle: "format" must be "${TASK_BUNDLE_FORMAT}"`);
  });

  it('names a bad field and the cross-check problems together, each with where it is', () => {
    const b = bundle();
    b.task.kind = 'poetry' as never;
    const phase = b.phases[0];
    const sub = b.submissions?.[0];
    if (!phase || !sub) throw new Error('fixture');
    phase.closesAt = phase.opensAt;
    sub.outputs = ['only one'];
    b.submissions?.push({ phase: 'test', team: 'team a', systemName: 'other', outputs: ['x', 'y'], isPrimary: true });
    b.submissions?.push({ phase: 'dev', team: 'B', systemName: 'z', outputs: [] });
    expect(taskBundleProblems(b).problems).toEqual([
      'task.kind: must be one of mt, summarization, data-to-text, other',
      "phases[0].closesAt: phase 'test' closes before it opens",
      "submissions[0].outputs: submission 1 ('sys' of 'Team A') has 1 outputs; its phase's test set has 2 instances (one output per instance, in test-set order)",
      "submissions[1].isPrimary: submission 2 ('other' of 'team a'): team 'team a' has two primary submissions in phase 'test' (at most one)",
      "submissions[2].phase: submission 3 ('z' of 'B') is for phase 'dev', which the bundle does not hold",
    ]);
  });

  it('refuses links that are not http(s) and duplicate instance ids', () => {
    const b = bundle();
    const sub = b.submissions?.[0];
    const ts = b.testSets[0];
    if (!sub || !ts) throw new Error('fixture');
    sub.paperUrl = 'javascript:alert(1)';
    ts.instances[1] = { id: 'a', source: 's', references: ['r'] };
    expect(taskBundleProblems(b).problems).toEqual(['submissions[0].paperUrl: links must be http or https URLs', "testSets[0].instances[1].id: test set 'ts' has instance id 'a' twice"]);
  });

  it('stops after the limit and says how many more there are', () => {
    const b = bundle();
    b.submissions = Array.from({ length: 5 }, (_, k) => ({ phase: 'nowhere', team: 'T', systemName: `s${k}`, outputs: [] }));
    expect(taskBundleProblems(b, 2).problems).toEqual([
      "submissions[0].phase: submission 1 ('s0' of 'T') is for phase 'nowhere', which the bundle does not hold",
      "submissions[1].phase: submission 2 ('s1' of 'T') is for phase 'nowhere', which the bundle does not hold",
      '… and 3 more problems',
    ]);
  });
});
