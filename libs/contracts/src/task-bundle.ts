import { z } from 'zod';
import { TASK_KINDS, metricConfigListSchema } from './metric-config';

/**
 * A task bundle (issue #22, docs/adr/0029-task-bundles.md): one JSON file holding a task's
 * settings, phases, metrics and test sets (with references), and optionally its submissions
 * with their outputs. `podium task export` and `GET /api/tasks/:slug/bundle.json` write it;
 * `podium task import` and `POST /api/tasks/import` read it into another Podium. Scores are
 * never carried: the importing Podium scores the outputs itself.
 */
export const TASK_BUNDLE_FORMAT = 'podium-task-bundle';
export const TASK_BUNDLE_VERSION = 1;

/** Largest test set (instances) and submission count a bundle may carry. */
export const BUNDLE_MAX_INSTANCES = 200_000;
export const BUNDLE_MAX_SUBMISSIONS = 10_000;
const MAX_TEXT = 100_000;

const isoDate = (what: string) =>
  z
    .string({ error: `${what} must be a date (ISO 8601 text)` })
    .refine((s) => !Number.isNaN(Date.parse(s)), `${what} must be a date (ISO 8601 text)`);

export const bundleInstanceSchema = z.object({
  id: z.string().min(1, 'an instance id must not be empty').max(200),
  source: z.string().max(MAX_TEXT),
  references: z.array(z.string().max(MAX_TEXT)).min(1, 'each instance needs at least one reference').max(32),
  context: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const bundleTestSetSchema = z.object({
  name: z.string().trim().min(1, 'a test set needs a name').max(100),
  instances: z.array(bundleInstanceSchema).min(1, 'a test set needs at least one instance').max(BUNDLE_MAX_INSTANCES),
  humanScores: z.array(z.object({ instanceId: z.string(), systemName: z.string().min(1).max(200), score: z.number() })).default([]),
});

export const bundlePhaseSchema = z.object({
  name: z.string().trim().min(1, 'a phase needs a name').max(100),
  opensAt: isoDate('opensAt'),
  closesAt: isoDate('closesAt'),
  dailyLimit: z.number().int().min(1).max(10_000),
  totalLimit: z.number().int().min(1).max(100_000),
  leaderboardBeforeClose: z.boolean(),
  teamInstanceScores: z.boolean().default(false),
  significanceResamples: z.number().int().min(1).max(100_000).nullable().default(null),
  significanceSeed: z.number().int().default(12345),
  /** The split as stored (validated by the importing Podium's leaderboard library). */
  split: z.unknown().nullable().default(null),
  /** The name of its test set among `testSets`, or null. */
  testSet: z.string().nullable(),
});

const httpUrl = z
  .string()
  .max(500)
  .refine((u) => /^https?:\/\//i.test(u), 'links must be http or https URLs')
  .nullable()
  .default(null);

export const bundleSubmissionSchema = z.object({
  phase: z.string().min(1),
  team: z.string().trim().min(1, 'a submission needs a team name').max(100),
  systemName: z.string().trim().min(1, 'a submission needs a system name').max(200),
  description: z.string().max(5_000).default(''),
  paperUrl: httpUrl,
  codeUrl: httpUrl,
  isBaseline: z.boolean().default(false),
  isPrimary: z.boolean().default(false),
  moderation: z.enum(['NONE', 'HIDDEN', 'DISQUALIFIED']).default('NONE'),
  /** One output per instance of the phase's test set, in test-set order. */
  outputs: z.array(z.string().max(MAX_TEXT)),
});

const bundleObjectSchema = z.object({
    format: z.literal(TASK_BUNDLE_FORMAT, { error: `not a task bundle: "format" must be "${TASK_BUNDLE_FORMAT}"` }),
    version: z.literal(TASK_BUNDLE_VERSION, { error: `this Podium reads task bundles of version ${TASK_BUNDLE_VERSION}` }),
    exportedAt: z.string().optional(),
    task: z.object({
      slug: z.string(),
      title: z.string().trim().min(1, 'the task needs a title').max(200),
      description: z.string().max(20_000).default(''),
      kind: z.enum(TASK_KINDS, { error: `must be one of ${TASK_KINDS.join(', ')}` }),
      sourceLang: z.string().min(2).max(40),
      targetLang: z.string().min(2).max(40),
      metrics: metricConfigListSchema,
      combinedWeight: z.number().min(0).max(1).nullable().default(null),
      registration: z.enum(['OPEN', 'APPROVAL']).default('OPEN'),
      oneTeamPerPerson: z.boolean().default(false),
    }),
    testSets: z.array(bundleTestSetSchema).max(100),
    phases: z.array(bundlePhaseSchema).max(100),
    submissions: z.array(bundleSubmissionSchema).max(BUNDLE_MAX_SUBMISSIONS).default([]),
  });

type BundleParts = Pick<z.output<typeof bundleObjectSchema>, 'testSets' | 'phases' | 'submissions'>;

/** What no single field shows: names that clash, a phase naming a test set the bundle lacks, outputs that do not fit. */
function crossCheck(b: BundleParts, ctx: z.RefinementCtx): void {
  const testSets = new Map<string, number>();
  for (const [k, t] of b.testSets.entries()) {
    if (testSets.has(t.name)) ctx.addIssue({ code: 'custom', path: ['testSets', k, 'name'], message: `two test sets are named '${t.name}'` });
    testSets.set(t.name, t.instances.length);
    const ids = new Set<string>();
    for (const [i, inst] of t.instances.entries()) {
      if (ids.has(inst.id)) {
        ctx.addIssue({ code: 'custom', path: ['testSets', k, 'instances', i, 'id'], message: `test set '${t.name}' has instance id '${inst.id}' twice` });
        break;
      }
      ids.add(inst.id);
    }
  }
  const phases = new Map<string, string | null>();
  for (const [k, p] of b.phases.entries()) {
    if (phases.has(p.name)) ctx.addIssue({ code: 'custom', path: ['phases', k, 'name'], message: `two phases are named '${p.name}'` });
    phases.set(p.name, p.testSet);
    if (Date.parse(p.closesAt) <= Date.parse(p.opensAt)) ctx.addIssue({ code: 'custom', path: ['phases', k, 'closesAt'], message: `phase '${p.name}' closes before it opens` });
    if (p.testSet !== null && !testSets.has(p.testSet)) ctx.addIssue({ code: 'custom', path: ['phases', k, 'testSet'], message: `phase '${p.name}' names test set '${p.testSet}', which the bundle does not hold` });
  }
  const systems = new Set<string>();
  const primaries = new Set<string>();
  for (const [k, s] of b.submissions.entries()) {
    const where = `submission ${k + 1} ('${s.systemName}' of '${s.team}')`;
    if (!phases.has(s.phase)) {
      ctx.addIssue({ code: 'custom', path: ['submissions', k, 'phase'], message: `${where} is for phase '${s.phase}', which the bundle does not hold` });
      continue;
    }
    const testSet = phases.get(s.phase) ?? null;
    const expected = testSet === null ? undefined : testSets.get(testSet);
    if (expected === undefined) {
      ctx.addIssue({ code: 'custom', path: ['submissions', k, 'phase'], message: `${where} is for phase '${s.phase}', which has no test set` });
    } else if (s.outputs.length !== expected) {
      ctx.addIssue({ code: 'custom', path: ['submissions', k, 'outputs'], message: `${where} has ${s.outputs.length} outputs; its phase's test set has ${expected} instances (one output per instance, in test-set order)` });
    }
    const key = `${s.phase}\u0000${s.team.toLowerCase()}\u0000${s.systemName.toLowerCase()}`;
    if (systems.has(key)) ctx.addIssue({ code: 'custom', path: ['submissions', k, 'systemName'], message: `${where}: the team has this system name twice in phase '${s.phase}'` });
    systems.add(key);
    if (s.isPrimary) {
      const team = `${s.phase}\u0000${s.team.toLowerCase()}`;
      if (primaries.has(team)) ctx.addIssue({ code: 'custom', path: ['submissions', k, 'isPrimary'], message: `${where}: team '${s.team}' has two primary submissions in phase '${s.phase}' (at most one)` });
      primaries.add(team);
    }
  }
}

export const taskBundleSchema = bundleObjectSchema.superRefine(crossCheck);

export type TaskBundle = z.output<typeof taskBundleSchema>;
export type TaskBundleInput = z.input<typeof taskBundleSchema>;

/**
 * The problems of a bundle in plain words, each with where it is (`phases[0].closesAt: …`), at
 * most `limit` of them; an empty list when it is valid.
 */
export function taskBundleProblems(value: unknown, limit = 20): { bundle: TaskBundle | null; problems: string[] } {
  const r = taskBundleSchema.safeParse(value);
  if (r.success) return { bundle: r.data, problems: [] };
  // The object failed, so zod ran no cross-checks: run them on the parts that are well-formed,
  // so one bad field does not hide the rest.
  let issues = r.error.issues;
  const parts = z.object({ testSets: bundleObjectSchema.shape.testSets, phases: bundleObjectSchema.shape.phases, submissions: bundleObjectSchema.shape.submissions }).superRefine(crossCheck).safeParse(value);
  if (!parts.success) {
    const seen = new Set(issues.map((i) => `${i.path.join('.')}\u0000${i.message}`));
    issues = [...issues, ...parts.error.issues.filter((i) => !seen.has(`${i.path.join('.')}\u0000${i.message}`))];
  }
  const problems = issues.slice(0, limit).map((i) => {
    const at = i.path.map((p) => (typeof p === 'number' ? `[${String(p)}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    return at ? `${at}: ${i.message}` : i.message;
  });
  if (issues.length > limit) problems.push(`… and ${issues.length - limit} more problems`);
  return { bundle: null, problems };
}
