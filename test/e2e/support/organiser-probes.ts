/**
 * One real call per operation classified `taskOrganiser` (apps/api/src/common/authorization.ts),
 * aimed at a given task: the replay of issue #20 sends each as an organiser of another task
 * (FORBIDDEN) and the matrix e2e checks that every such operation has one here.
 */
export interface OrganiserTarget {
  slug: string;
  phaseId: string;
  submissionId: string;
  teamId: string;
  /** A user who exists (added or removed as organiser). */
  userName: string;
}

export interface OrganiserCall {
  query: string;
  variables: Record<string, unknown>;
}

export const TASK_ORGANISER_PROBES: Record<string, (t: OrganiserTarget) => OrganiserCall> = {
  auditLog: (t) => ({ query: `query($s: String) { auditLog(taskSlug: $s) { id } }`, variables: { s: t.slug } }),
  registrations: (t) => ({ query: `query($s: String!) { registrations(taskSlug: $s) { status } }`, variables: { s: t.slug } }),
  phaseImpact: (t) => ({ query: `query($p: ID!) { phaseImpact(id: $p) { submissions teams } }`, variables: { p: t.phaseId } }),
  taskOrganisers: (t) => ({ query: `query($s: String!) { taskOrganisers(slug: $s) { name } }`, variables: { s: t.slug } }),
  updateTask: (t) => ({ query: `mutation($s: String!) { updateTask(slug: $s, input: { title: "taken over" }) { slug } }`, variables: { s: t.slug } }),
  addTaskOrganiser: (t) => ({ query: `mutation($s: String!, $u: String!) { addTaskOrganiser(slug: $s, userName: $u) { name } }`, variables: { s: t.slug, u: t.userName } }),
  removeTaskOrganiser: (t) => ({ query: `mutation($s: String!, $u: String!) { removeTaskOrganiser(slug: $s, userName: $u) { name } }`, variables: { s: t.slug, u: t.userName } }),
  createPhase: (t) => ({
    query: `mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`,
    variables: { i: { taskSlug: t.slug, name: 'intruder', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 1, totalLimit: 1, leaderboardBeforeClose: true } },
  }),
  updatePhase: (t) => ({ query: `mutation($p: ID!) { updatePhase(id: $p, input: { leaderboardBeforeClose: true }) { id } }`, variables: { p: t.phaseId } }),
  closePhase: (t) => ({ query: `mutation($p: ID!) { closePhase(id: $p) { id } }`, variables: { p: t.phaseId } }),
  publishPhase: (t) => ({ query: `mutation($p: ID!) { publishPhase(id: $p) { id } }`, variables: { p: t.phaseId } }),
  uploadTestSet: (t) => ({
    query: `mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "intruder", instances: $i) { id } }`,
    variables: { p: t.phaseId, i: [{ id: 'x', source: 's', references: ['r'] }] },
  }),
  moderateSubmission: (t) => ({ query: `mutation($s: ID!) { moderateSubmission(id: $s, moderation: HIDDEN, reason: "rival") }`, variables: { s: t.submissionId } }),
  setBaseline: (t) => ({ query: `mutation($s: ID!) { setBaseline(id: $s, isBaseline: true) }`, variables: { s: t.submissionId } }),
  rescore: (t) => ({ query: `mutation($s: ID!) { rescore(submissionId: $s) }`, variables: { s: t.submissionId } }),
  rescorePhase: (t) => ({ query: `mutation($p: ID!) { rescorePhase(phaseId: $p) }`, variables: { p: t.phaseId } }),
  requeueSubmissions: (t) => ({ query: `mutation($s: ID!) { requeueSubmissions(submissionId: $s) }`, variables: { s: t.submissionId } }),
  approveRegistration: (t) => ({ query: `mutation($s: String!, $t: ID!) { approveRegistration(taskSlug: $s, teamId: $t) { status } }`, variables: { s: t.slug, t: t.teamId } }),
  runRobustness: (t) => ({ query: `mutation($s: String!) { runRobustness(taskSlug: $s) { id } }`, variables: { s: t.slug } }),
  setPhaseSignificance: (t) => ({ query: `mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 10, seed: 1) { seed } }`, variables: { p: t.phaseId } }),
};
