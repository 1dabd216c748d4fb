import type { AuthUser } from '@podium/domain';
import { PAIRED_TESTS, pairTestField } from '@podium/leaderboard';
import type { Resource } from './visibility';

/**
 * Deny by default: every GraphQL root operation, every object field and every REST route of the
 * API is classified here with the rule that decides who may use it. What is not listed is refused
 * at run time (the GraphQL plugin and the guard in `authorization.plugin.ts` / `auth.guard.ts`) and
 * fails `authorization-classification.integration.spec.ts`, which walks the schema and the route
 * table. See docs/adr/0012-deny-by-default.md.
 *
 * Two layers: this module's static part (signed in? which global role?) is checked for the whole
 * operation before anything resolves, O(1) per field and cached per parsed document; the rule's
 * data-dependent part (which task, which team, which phase state) is checked by the resolver
 * through `visibility.ts`, which the rule names.
 */
export type AccessRule =
  /** Anyone, anonymous callers included. */
  | 'public'
  /** An object field: whoever may read the object it belongs to; it adds no restriction of its own. */
  | 'parent'
  /** Any signed-in user, acting on their own account (their tokens, their teams). */
  | 'signedIn'
  /** Signed in; the resolver checks membership of the team (the task's organisers and administrators act for it too). */
  | 'ownTeam'
  /** Users with the ORGANISER or ADMIN role: they create tasks and become their first organiser. */
  | 'taskCreator'
  /** Signed in and organising some task (or ADMIN); the resolver checks the target's task (`assertTaskOrganiser`). */
  | 'taskOrganiser'
  /** The instance's administrators (role ADMIN). */
  | 'admin'
  /** Null unless the caller is a member, an organiser of a task the team registered for, or an administrator. */
  | 'teamInsider'
  /** The authorization matrix of `visibility.ts` for this resource, per phase state (ADR 0008). */
  | `phaseResource:${Resource}`;

/** What a rule demands before anything resolves; the rest is the resolver's. */
export type StaticRequirement = 'none' | 'signedIn' | 'organiser' | 'taskCreator' | 'admin';

export function staticRequirement(rule: AccessRule): StaticRequirement {
  switch (rule) {
    case 'public':
    case 'parent':
    case 'teamInsider':
      return 'none';
    case 'signedIn':
    case 'ownTeam':
      return 'signedIn';
    case 'taskCreator':
      return 'taskCreator';
    case 'taskOrganiser':
      return 'organiser';
    case 'admin':
      return 'admin';
    default:
      return 'none'; // phaseResource:*: the matrix has anonymous cells; the resolver decides
  }
}

/** Whether `user` meets a static requirement: O(1), no database work. */
export function meets(requirement: StaticRequirement, user: AuthUser | null): boolean {
  switch (requirement) {
    case 'none':
      return true;
    case 'signedIn':
      return user !== null;
    case 'organiser':
      return user !== null && (user.role === 'ADMIN' || user.organisedTaskIds.length > 0);
    case 'taskCreator':
      return user !== null && (user.role === 'ADMIN' || user.role === 'ORGANISER');
    case 'admin':
      return user?.role === 'ADMIN';
  }
}

/** Several fields of one type under one rule; each field is still named (nothing by wildcard). */
function each<R extends AccessRule>(rule: R, names: string): Record<string, R> {
  return Object.fromEntries(names.split(/\s+/).filter(Boolean).map((n) => [n, rule]));
}

/** Every GraphQL type's fields (Query and Mutation are the operations) and the rule of each. */
export const GRAPHQL_CLASSIFICATION: Readonly<Record<string, Readonly<Record<string, AccessRule>>>> = {
  Query: {
    ...each('public', 'tasks task taskKinds metrics significanceTests rankingMethods pValueCorrections phase teams team me robustness'),
    ...each('signedIn', 'myTokens'),
    ...each('ownTeam', 'quota teamSubmissions'),
    ...each('taskOrganiser', 'auditLog registrations taskOrganisers phaseImpact'),
    submissions: 'phaseResource:outputs',
    submission: 'phaseResource:outputs',
    instanceScores: 'phaseResource:instanceScores',
    leaderboard: 'phaseResource:leaderboard',
    reportCard: 'phaseResource:leaderboard',
  },
  Mutation: {
    ...each('public', 'register login logout'),
    ...each('signedIn', 'createMyTeam joinTeam createToken revokeToken rotateInviteCode leaveTeam removeTeamMember'),
    // Anyone holding a valid API token exchanges it for a web session of that token's user.
    startSessionWithToken: 'public',
    ...each('ownTeam', 'submit markPrimary registerTeam updateSubmissionMetadata'),
    createTask: 'taskCreator',
    ...each(
      'taskOrganiser',
      'updateTask addTaskOrganiser removeTaskOrganiser createPhase updatePhase closePhase publishPhase uploadTestSet moderateSubmission setBaseline rescore rescorePhase requeueSubmissions approveRegistration runRobustness setPhaseSignificance',
    ),
    ...each('admin', 'createTeam issueToken'),
  },
  // Reached through public queries.
  Task: each('parent', 'combinedWeight createdAt description id kind metrics oneTeamPerPerson phases registration slug sourceLang targetLang title'),
  MetricConfigType: each('parent', 'available definition key name options unavailableReason'),
  MetricDefinition: each('parent', 'configurable description displayName higherIsBetter kind name options rangeHigh rangeLow signatureFormat'),
  TaskKindDefinition: each('parent', 'defaultMetrics displayName name'),
  // The ranking registries (public queries significanceTests, rankingMethods, pValueCorrections).
  SignificanceTest: each('parent', 'corpus key label statistic value'),
  CorrectionMethod: each('parent', 'key label value'),
  RankingMethod: each('parent', 'clusterTest description direction intervalKind key label'),
  Phase: {
    ...each('parent', 'closedEarlyAt closesAt commitment createdAt dailyLimit hasSplit id isOpen leaderboardBeforeClose lifecycleState name opensAt primariesFrozenAt publishedAt referencesVisible scoresVisible significanceResamples significanceSeed state stateDescription task taskId teamInstanceScores testSet testSetId totalLimit'),
    testInput: 'phaseResource:testInput',
    // Oracles of the hidden references before publishing (ADR 0014): the resolver answers null.
    scoredCount: 'phaseResource:leaderboard',
    split: 'phaseResource:phaseFacts',
  },
  TestSet: { ...each('parent', 'createdAt id instanceCount name'), checksum: 'phaseResource:phaseFacts' },
  PhaseImpact: each('parent', 'baselines instances moderated pending phaseId rescorable scored submissions teams teamsWithoutPrimary'),
  PhaseSplit: each('parent', 'finalOn publicFraction publicIds seed'),
  // The salt is null for everyone until publishing (resource commitmentSalt); the rest is public.
  TestSetCommitment: { ...each('parent', 'canonicalUrl commitment committedAt scheme'), salt: 'phaseResource:commitmentSalt' },
  TestInputPage: each('parent', 'offset rows total'),
  TestInputRow: each('parent', 'context id position source'),
  Team: each('parent', 'id name'),
  TeamDetails: { ...each('parent', 'createdAt id name ownerId'), members: 'teamInsider', inviteCode: 'teamInsider' },
  TeamMember: each('parent', 'id name'),
  User: each('parent', 'id name role teams organisedTaskIds'),
  ApiTokenInfo: each('parent', 'createdAt id label lastUsedAt revokedAt issuedBy'),
  NewApiToken: each('parent', 'info token'),
  TaskOrganiser: each('parent', 'userId name addedBy createdAt'),
  AuditEntry: each('parent', 'action actor createdAt details id targetId targetType'),
  TaskRegistration: each('parent', 'createdAt status team'),
  Quota: each('parent', 'dailyLimit nextSlotAt remaining totalLimit usedToday usedTotal'),
  PhaseSignificance: each('parent', 'phaseId resamples seed'),
  // A submission is seen by who the matrix's `outputs` row allows (its query filtered it);
  // its corpus scores follow it (`instanceScores` has the same row).
  Submission: {
    ...each(
      'parent',
      'attempt codeUrl corpusScores createdAt description duplicateOf error id isBaseline instanceScoresVisible isPrimary maxAttempts moderation moderationReason moderationReasonPublic paperUrl phase phaseId progressDone progressTotal retryNote scoreHistory scoredAt status systemName team teamId',
    ),
    // Another team's identical upload: organisers only (ADR 0014); null for everyone else.
    crossTeamDuplicateOf: 'phaseResource:crossTeamDuplicates',
  },
  CorpusScore: each('parent', 'higherIsBetter metric part signature value'),
  ScoreHistoryEntry: each('parent', 'metric replacedAt signature value'),
  DuplicateOf: each('parent', 'id systemName teamId'),
  InstanceScorePage: each('parent', 'limit offset rows total'),
  InstanceScore: { ...each('parent', 'instanceId output position signature source'), score: 'phaseResource:perInstanceScores', references: 'phaseResource:references' },
  // The leaderboard and the report card (`phaseResource:leaderboard` at the query).
  Leaderboard: each(
    'parent',
    'alpha availableMetrics btComponents btFiniteMle btNote clusterDefinition clusterTests computedAt corpusSignature correction disagreement higherIsBetter instanceCount mainAggregation methods metric metricSignature notes pairCount pairs phaseId resamples resamplesChosen scoredOn seed significanceWarnings smallestReachableP stamp systems test updating',
  ),
  LeaderboardSystem: each(
    'parent',
    'bt btCi btTier cluster clusterDisagreement codeUrl corpusCi corpusScore corpusSignature elo isBaseline mean meanCi median medianCi n paperUrl rank rankInterval signature submissionId system team trueskill values',
  ),
  ScoredOn: each('parent', 'instances note part total'),
  BootstrapSettings: each('parent', 'confidence resamples seed'),
  BtComponent: each('parent', 'systems tier'),
  ClusterTest: each('parent', 'aggregation label test'),
  MethodDescriptor: each('parent', 'clusters description direction intervalKind key label test testLabel'),
  MethodValue: each('parent', 'cluster interval method rank rankInterval value'),
  CorpusInterval: each('parent', 'ci high low mean'),
  Interval: each('parent', 'high low'),
  RankInterval: each('parent', 'best worst'),
  SystemPair: each('parent', 'a aSubmissionId b bSubmissionId losses meanDiff medianDiff p pAdjusted pBt pTest significant testResults tests ties wins'),
  PairTestResult: each('parent', 'p test'),
  PairSignificance: each('parent', 'bt corpus mean median'),
  // one field per registered test (built from the registry, ADR 0033)
  PairTests: each('parent', PAIRED_TESTS.map((t) => pairTestField(t.key)).join(' ')),
  SystemClusters: each('parent', 'bt corpus mean median'),
  SystemRankIntervals: each('parent', 'bt corpus elo mean median trueskill'),
  SystemRanks: each('parent', 'bt corpus elo mean median trueskill'),
  TrueSkillRating: each('parent', 'mu sigma'),
  ReportCard: each('parent', 'humanScores metrics mode phaseId suite systems'),
  MetricReportCard: each('parent', 'higherIsBetter humanCorrelation metric robustness signature tradeoff'),
  HumanCorrelation: each('parent', 'segmentKendallTauB segmentN segmentPearson systemN systemPearson'),
  CorrelationTradeoffPoint: each('parent', 'segmentN segmentPearson systemPearson w with'),
  // Robustness reports describe metrics, not teams: public like the metric registry.
  RobustnessReport: each(
    'parent',
    'bootstrap createdAt error failingCount finishedAt higherIsBetter id macroAccuracy metric mode overall phenomena pooledAccuracy signature status suite tradeoff',
  ),
  RobustnessAccuracy: each('parent', 'accuracy ci n passed'),
  PhenomenonAccuracy: each('parent', 'accuracy ci n passed phenomenon'),
  TradeoffPoint: each('parent', 'accuracy ci signature w with'),
};

/** `Type.field` → rule, built once: the per-request lookups are Map gets. */
export const GRAPHQL_RULES: ReadonlyMap<string, AccessRule> = new Map(
  Object.entries(GRAPHQL_CLASSIFICATION).flatMap(([type, fields]) => Object.entries(fields).map(([field, rule]) => [`${type}.${field}`, rule] as const)),
);

/**
 * Every REST route as `METHOD path` (Express route syntax) and its rule. GraphQL's own endpoint
 * is classified per field above; the web app's files are served by middleware outside Nest's
 * router (public static files and the SPA's index.html).
 */
export const REST_CLASSIFICATION: Readonly<Record<string, AccessRule>> = {
  'GET /api/health': 'public',
  'GET /api/schema.graphql': 'public',
  // The standalone `podium` command (a bundle of apps/cli): public like its source.
  'GET /api/cli/podium.cjs': 'public',
  // Task bundles (issue #22): the export holds the references, so the task's organisers only
  // (the service checks the task); an import creates a task, so the roles that create tasks.
  'GET /api/tasks/:slug/bundle.json': 'taskOrganiser',
  'POST /api/tasks/import': 'taskCreator',
  'GET /api/tasks/:slug/robustness.csv': 'public',
  'GET /api/tasks/:slug/robustness.json': 'public',
  'GET /api/phases/:id/test-input.:format': 'phaseResource:testInput',
  'GET /api/submissions/:id/scores.csv': 'phaseResource:perInstanceScores',
  'GET /api/submissions/:id/scores.jsonl': 'phaseResource:perInstanceScores',
  'GET /api/phases/:id/scores.csv': 'phaseResource:downloads',
  'GET /api/phases/:id/scores.jsonl': 'phaseResource:downloads',
  // Every output with a manifest: everyone once published, organisers before (issue #22).
  'GET /api/phases/:id/outputs.jsonl': 'phaseResource:bulkOutputs',
  'GET /api/phases/:id/leaderboard.json': 'phaseResource:leaderboard',
  'GET /api/phases/:id/leaderboard.csv': 'phaseResource:leaderboard',
  // The board's pairs in tiles and as a streamed download (ADR 0038): exactly the board's visibility.
  'GET /api/phases/:id/leaderboard-pairs.json': 'phaseResource:leaderboard',
  'GET /api/phases/:id/leaderboard-pairs.jsonl': 'phaseResource:leaderboard',
  'POST /api/phases/:phaseId/submissions': 'ownTeam',
  // The test-set commitment (salt null until publishing) and the canonical bytes it hashes (ADR 0014).
  'GET /api/phases/:id/commitment.json': 'public',
  'GET /api/phases/:id/test-set.jsonl': 'phaseResource:references',
};

export const REST_RULES: ReadonlyMap<string, AccessRule> = new Map(Object.entries(REST_CLASSIFICATION));

const REQUIREMENT_TEXT: Record<Exclude<StaticRequirement, 'none'>, string> = {
  signedIn: 'needs a signed-in caller (an API token or a web session)',
  organiser: 'is for organisers of a task (and administrators)',
  taskCreator: 'is for users with the ORGANISER or ADMIN role',
  admin: 'is for administrators only',
};

/** The refusal text for a coordinate or route whose static requirement the caller misses. */
export function refusalText(what: string, requirement: Exclude<StaticRequirement, 'none'>, user: AuthUser | null): string {
  return `${what} ${REQUIREMENT_TEXT[requirement]}${user ? `; '${user.name}' is ${user.role === 'PARTICIPANT' && user.organisedTaskIds.length === 0 ? 'a participant' : `a${user.role === 'ADMIN' ? 'n' : ''} ${user.role.toLowerCase()}`}` : ''}`;
}

export function unclassifiedText(what: string): string {
  return `${what} is not classified in the authorization module (apps/api/src/common/authorization.ts); refused by default`;
}
