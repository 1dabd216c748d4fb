/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CreatePhaseInput = {
  closesAt: string;
  /** Submissions per team in any 24 hours (≥ 1) */
  dailyLimit: number;
  /** Show the leaderboard to everyone while the phase is open */
  leaderboardBeforeClose?: boolean;
  name: string;
  opensAt: string;
  /** Slug of the task the phase belongs to */
  taskSlug: string;
  /** Submissions per team in the whole phase (≥ 1) */
  totalLimit: number;
};

export type CreateTaskInput = {
  /** In [0, 1] */
  combinedWeight?: number | null | undefined;
  description?: string | null | undefined;
  /** mt, summarization, data-to-text or other */
  kind: string;
  /** Defaults depend on the kind */
  metrics?: Array<MetricConfigInput> | null | undefined;
  /** Default OPEN */
  registration?: Registration | null | undefined;
  /** URL name: ^[a-z0-9][a-z0-9-]{1,62}$ */
  slug: string;
  sourceLang: string;
  targetLang: string;
  title: string;
};

/** Test-set order, or by score */
export type InstanceOrder =
  | 'ASC'
  | 'DESC'
  | 'POSITION';

export type MetricConfigInput = {
  key: string;
  name: string;
  options?: Record<string, unknown> | null | undefined;
};

/** NONE; HIDDEN (off the leaderboard, seen only by its team and organisers); DISQUALIFIED (shown, not ranked) */
export type Moderation =
  | 'DISQUALIFIED'
  | 'HIDDEN'
  | 'NONE';

/** Holm (family-wise), Benjamini–Hochberg (FDR), or none */
export type PValueCorrection =
  | 'BH'
  | 'HOLM'
  | 'NONE';

/** Paired t-test, Wilcoxon signed-rank, sign test, Mood's median test, paired bootstrap, approximate randomisation */
export type PairedTest =
  | 'AR'
  | 'BOOTSTRAP'
  | 'MOOD'
  | 'SIGN'
  | 'TTEST'
  | 'WILCOXON';

export type Registration =
  | 'APPROVAL'
  | 'OPEN';

export type RegistrationStatus =
  | 'APPROVED'
  | 'PENDING';

/** ref: m(ref, paraphrase) > m(ref, adversarial); src: m(source, ref) > m(source, adversarial) (MENLI Eq. 1) */
export type RobustnessMode =
  | 'REF'
  | 'SRC';

export type RobustnessReportStatus =
  | 'DONE'
  | 'FAILED'
  | 'QUEUED'
  | 'RUNNING';

/** Organisers run tasks; participants submit for their teams */
export type Role =
  | 'ORGANISER'
  | 'PARTICIPANT';

export type SubmissionStatus =
  | 'FAILED'
  | 'QUEUED'
  | 'SCORED'
  | 'SCORING';

export type TestInstanceInput = {
  /** Optional context shown to participants with the source (test input); never references */
  context?: Record<string, unknown> | null | undefined;
  /** Instance id, unique within the test set */
  id: string;
  /** At least one reference */
  references: Array<string>;
  source: string;
};

/** Fields left out stay as they are */
export type UpdatePhaseInput = {
  /** Extend or shorten the phase */
  closesAt?: string | null | undefined;
  dailyLimit?: number | null | undefined;
  /** The public flag: everyone sees the board while the phase runs */
  leaderboardBeforeClose?: boolean | null | undefined;
  name?: string | null | undefined;
  opensAt?: string | null | undefined;
  totalLimit?: number | null | undefined;
};

/** Fields left out stay as they are; metrics only before the first submission of the task */
export type UpdateTaskInput = {
  combinedWeight?: number | null | undefined;
  description?: string | null | undefined;
  metrics?: Array<MetricConfigInput> | null | undefined;
  registration?: Registration | null | undefined;
  title?: string | null | undefined;
};

export type RegisterMutationVariables = Exact<{
  name: string;
  email: string;
  password: string;
}>;


export type RegisterMutation = { register: { id: string, name: string } };

export type LoginMutationVariables = Exact<{
  login: string;
  password: string;
}>;


export type LoginMutation = { login: { id: string, name: string } };

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = { logout: boolean };

export type TeamDetailsQueryVariables = Exact<{
  id: string | number;
}>;


export type TeamDetailsQuery = { team: { id: string, name: string, inviteCode: string | null, createdAt: string, members: Array<{ id: string, name: string }> } };

export type CreateMyTeamMutationVariables = Exact<{
  name: string;
}>;


export type CreateMyTeamMutation = { createMyTeam: { id: string, name: string, inviteCode: string | null } };

export type JoinTeamMutationVariables = Exact<{
  inviteCode: string;
}>;


export type JoinTeamMutation = { joinTeam: { id: string, name: string } };

export type MyTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type MyTokensQuery = { myTokens: Array<{ id: string, label: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type CreateTokenMutationVariables = Exact<{
  label: string;
}>;


export type CreateTokenMutation = { createToken: { token: string, info: { id: string, label: string } } };

export type RevokeTokenMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeTokenMutation = { revokeToken: { id: string, revokedAt: string | null } };

export type TeamSubmissionsQueryVariables = Exact<{
  teamId: string | number;
}>;


export type TeamSubmissionsQuery = { teamSubmissions: Array<{ id: string, systemName: string, status: SubmissionStatus, isPrimary: boolean, isBaseline: boolean, moderation: Moderation, moderationReason: string | null, createdAt: string, phase: { id: string, name: string, task: { slug: string, title: string } } }> };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, name: string, role: Role, teams: Array<{ id: string, name: string }> } | null };

export type CreateTeamMutationVariables = Exact<{
  name: string;
  members: Array<string> | string;
}>;


export type CreateTeamMutation = { createTeam: { id: string, name: string } };

export type IssueTokenMutationVariables = Exact<{
  userName: string;
  label: string;
}>;


export type IssueTokenMutation = { issueToken: string };

export type LeaderboardQueryVariables = Exact<{
  phaseId: string | number;
  metric?: string | null | undefined;
  test?: PairedTest | null | undefined;
  correction?: PValueCorrection | null | undefined;
}>;


export type LeaderboardQuery = { leaderboard: { phaseId: string, metric: string, higherIsBetter: boolean, metricSignature: string, availableMetrics: Array<string>, test: PairedTest, correction: PValueCorrection, seed: number, resamples: number, resamplesChosen: boolean, smallestReachableP: number, alpha: number, significanceWarnings: Array<string>, mainAggregation: string, corpusSignature: string, clusterDefinition: string, btFiniteMle: boolean, btNote: string | null, instanceCount: number, disagreement: string | null, notes: Array<string>, clusterTests: Array<{ aggregation: string, test: string, label: string }>, systems: Array<{ submissionId: string, system: string, team: string, isBaseline: boolean, n: number, corpusScore: number | null, corpusSignature: string, mean: number, median: number, bt: number | null, btTier: number, elo: number | null, clusterDisagreement: boolean, corpusCi: { mean: number | null, ci: number | null, low: number | null, high: number | null } | null, meanCi: { low: number | null, high: number | null }, medianCi: { low: number | null, high: number | null }, btCi: { low: number | null, high: number | null }, trueskill: { mu: number | null, sigma: number | null }, rank: { mean: number, median: number, bt: number, elo: number, trueskill: number, corpus: number | null }, rankInterval: { mean: { best: number, worst: number }, median: { best: number, worst: number }, bt: { best: number, worst: number }, elo: { best: number, worst: number } | null, trueskill: { best: number, worst: number } | null, corpus: { best: number, worst: number } | null }, cluster: { mean: number, median: number, bt: number, corpus: number | null } }>, pairs: Array<{ aSubmissionId: string, bSubmissionId: string, a: string, b: string, wins: number, losses: number, ties: number, pBt: number | null, medianDiff: number | null, meanDiff: number | null, p: number | null, pAdjusted: number | null, pTest: string, tests: { ttest: number | null, wilcoxon: number | null, sign: number | null, mood: number | null, bootstrap: number | null, ar: number | null, bootstrapCorpus: number | null, arCorpus: number | null }, significant: { mean: boolean, median: boolean, bt: boolean, corpus: boolean | null } }> } };

export type SetPhaseSignificanceMutationVariables = Exact<{
  phaseId: string | number;
  resamples?: number | null | undefined;
  seed?: number | null | undefined;
}>;


export type SetPhaseSignificanceMutation = { setPhaseSignificance: { phaseId: string, resamples: number | null, seed: number } };

export type ClosePhaseMutationVariables = Exact<{
  id: string | number;
}>;


export type ClosePhaseMutation = { closePhase: { id: string, closedEarlyAt: string | null } };

export type PublishPhaseMutationVariables = Exact<{
  id: string | number;
  published: boolean;
}>;


export type PublishPhaseMutation = { publishPhase: { id: string, publishedAt: string | null } };

export type UpdatePhaseMutationVariables = Exact<{
  id: string | number;
  input: UpdatePhaseInput;
}>;


export type UpdatePhaseMutation = { updatePhase: { id: string, closesAt: string } };

export type MarkPrimaryMutationVariables = Exact<{
  id: string | number;
}>;


export type MarkPrimaryMutation = { markPrimary: string };

export type ModerateSubmissionMutationVariables = Exact<{
  id: string | number;
  moderation: Moderation;
  reason?: string | null | undefined;
}>;


export type ModerateSubmissionMutation = { moderateSubmission: string };

export type SetBaselineMutationVariables = Exact<{
  id: string | number;
  isBaseline: boolean;
}>;


export type SetBaselineMutation = { setBaseline: string };

export type RescorePhaseMutationVariables = Exact<{
  phaseId: string | number;
}>;


export type RescorePhaseMutation = { rescorePhase: number };

export type AuditLogQueryVariables = Exact<{
  taskSlug?: string | null | undefined;
}>;


export type AuditLogQuery = { auditLog: Array<{ id: string, actor: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>, createdAt: string }> };

export type TestInputPreviewQueryVariables = Exact<{
  id: string | number;
}>;


export type TestInputPreviewQuery = { phase: { id: string, testInput: { total: number, rows: Array<{ id: string, position: number, source: string }> } } };

export type RegistrationsQueryVariables = Exact<{
  taskSlug: string;
}>;


export type RegistrationsQuery = { registrations: Array<{ status: RegistrationStatus, createdAt: string, team: { id: string, name: string } }> };

export type ApproveRegistrationMutationVariables = Exact<{
  taskSlug: string;
  teamId: string | number;
}>;


export type ApproveRegistrationMutation = { approveRegistration: { status: RegistrationStatus } };

export type RegisterTeamMutationVariables = Exact<{
  taskSlug: string;
  teamId: string | number;
}>;


export type RegisterTeamMutation = { registerTeam: { status: RegistrationStatus } };

export type UpdateTaskRegistrationMutationVariables = Exact<{
  slug: string;
  registration: Registration;
}>;


export type UpdateTaskRegistrationMutation = { updateTask: { slug: string, registration: Registration } };

export type UpdateTaskMutationVariables = Exact<{
  slug: string;
  input: UpdateTaskInput;
}>;


export type UpdateTaskMutation = { updateTask: { slug: string, title: string } };

export type CreateTaskMutationVariables = Exact<{
  input: CreateTaskInput;
}>;


export type CreateTaskMutation = { createTask: { id: string, slug: string } };

export type CreatePhaseMutationVariables = Exact<{
  input: CreatePhaseInput;
}>;


export type CreatePhaseMutation = { createPhase: { id: string, name: string } };

export type UploadTestSetMutationVariables = Exact<{
  phaseId: string | number;
  name: string;
  instances: Array<TestInstanceInput> | TestInstanceInput;
}>;


export type UploadTestSetMutation = { uploadTestSet: { id: string, name: string, instanceCount: number, checksum: string } };

export type RobustnessReportFieldsFragment = { id: string, metric: string, suite: string, mode: RobustnessMode, status: RobustnessReportStatus, error: string | null, signature: string, higherIsBetter: boolean | null, failingCount: number | null, createdAt: string, finishedAt: string | null, overall: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, pooledAccuracy: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, phenomena: Array<{ phenomenon: string, accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } }>, bootstrap: { seed: number, resamples: number, confidence: number } | null, tradeoff: Array<{ with: string, w: number, accuracy: number, signature: string, ci: { low: number | null, high: number | null } }> | null };

export type RobustnessQueryVariables = Exact<{
  taskSlug: string;
}>;


export type RobustnessQuery = { robustness: Array<{ id: string, metric: string, suite: string, mode: RobustnessMode, status: RobustnessReportStatus, error: string | null, signature: string, higherIsBetter: boolean | null, failingCount: number | null, createdAt: string, finishedAt: string | null, overall: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, pooledAccuracy: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, phenomena: Array<{ phenomenon: string, accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } }>, bootstrap: { seed: number, resamples: number, confidence: number } | null, tradeoff: Array<{ with: string, w: number, accuracy: number, signature: string, ci: { low: number | null, high: number | null } }> | null }> };

export type RunRobustnessMutationVariables = Exact<{
  taskSlug: string;
  metric?: string | null | undefined;
}>;


export type RunRobustnessMutation = { runRobustness: Array<{ id: string, metric: string, suite: string, mode: RobustnessMode, status: RobustnessReportStatus, error: string | null, signature: string, higherIsBetter: boolean | null, failingCount: number | null, createdAt: string, finishedAt: string | null, overall: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, pooledAccuracy: { accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } } | null, phenomena: Array<{ phenomenon: string, accuracy: number, n: number, passed: number, ci: { low: number | null, high: number | null } }>, bootstrap: { seed: number, resamples: number, confidence: number } | null, tradeoff: Array<{ with: string, w: number, accuracy: number, signature: string, ci: { low: number | null, high: number | null } }> | null }> };

export type RobustnessTradeoffCardQueryVariables = Exact<{
  phaseId: string | number;
  metric?: string | null | undefined;
}>;


export type RobustnessTradeoffCardQuery = { reportCard: { phaseId: string, humanScores: number, metrics: Array<{ metric: string, tradeoff: Array<{ with: string, w: number, segmentPearson: number | null, segmentN: number }> | null }> } };

export type SubmissionQueryVariables = Exact<{
  id: string | number;
}>;


export type SubmissionQuery = { submission: { id: string, phaseId: string, systemName: string, description: string, isBaseline: boolean, isPrimary: boolean, moderation: Moderation, moderationReason: string | null, status: SubmissionStatus, error: string | null, retryNote: string | null, progressDone: number, progressTotal: number, createdAt: string, scoredAt: string | null, duplicateOf: { id: string, systemName: string } | null, team: { id: string, name: string }, corpusScores: Array<{ metric: string, signature: string, value: number }>, scoreHistory: Array<{ metric: string, signature: string, value: number, replacedAt: string }> } };

export type PhaseSubmissionsQueryVariables = Exact<{
  phaseId: string | number;
  teamId?: string | number | null | undefined;
}>;


export type PhaseSubmissionsQuery = { submissions: Array<{ id: string, systemName: string, isBaseline: boolean, isPrimary: boolean, moderation: Moderation, status: SubmissionStatus, progressDone: number, progressTotal: number, createdAt: string, duplicateOf: { id: string, systemName: string } | null, team: { id: string, name: string } }> };

export type InstanceScoresQueryVariables = Exact<{
  submissionId: string | number;
  metric: string;
  order: InstanceOrder;
  offset: number;
  limit: number;
}>;


export type InstanceScoresQuery = { instanceScores: { total: number, offset: number, limit: number, rows: Array<{ instanceId: string, position: number, source: string, references: Array<string> | null, output: string, score: number }> } };

export type QuotaQueryVariables = Exact<{
  phaseId: string | number;
  teamId: string | number;
}>;


export type QuotaQuery = { quota: { dailyLimit: number, totalLimit: number, usedToday: number, usedTotal: number, remaining: number } };

export type RescoreMutationVariables = Exact<{
  phaseId?: string | number | null | undefined;
  submissionId?: string | number | null | undefined;
}>;


export type RescoreMutation = { rescore: number };

export type TasksQueryVariables = Exact<{ [key: string]: never; }>;


export type TasksQuery = { tasks: Array<{ id: string, slug: string, title: string, registration: Registration, kind: string, sourceLang: string, targetLang: string, phases: Array<{ id: string, name: string, opensAt: string, closesAt: string, isOpen: boolean, scoredCount: number, state: string, closedEarlyAt: string | null, publishedAt: string | null }> }> };

export type TaskQueryVariables = Exact<{
  slug: string;
}>;


export type TaskQuery = { task: { id: string, slug: string, title: string, description: string, kind: string, sourceLang: string, targetLang: string, combinedWeight: number | null, metrics: Array<{ key: string, name: string, options: Record<string, unknown>, definition: { displayName: string, higherIsBetter: boolean } | null }>, phases: Array<{ id: string, name: string, opensAt: string, closesAt: string, isOpen: boolean, scoredCount: number, scoresVisible: boolean, state: string, publishedAt: string | null, dailyLimit: number, totalLimit: number, testSet: { id: string, name: string, instanceCount: number } | null }> } };

export type PhaseQueryVariables = Exact<{
  id: string | number;
}>;


export type PhaseQuery = { phase: { id: string, name: string, opensAt: string, closesAt: string, isOpen: boolean, scoredCount: number, scoresVisible: boolean, dailyLimit: number, totalLimit: number, testSet: { id: string, name: string, instanceCount: number } | null, task: { id: string, slug: string, title: string, kind: string, sourceLang: string, targetLang: string, combinedWeight: number | null, metrics: Array<{ key: string, name: string, definition: { displayName: string, higherIsBetter: boolean } | null }> } } };

export type MetricsQueryVariables = Exact<{ [key: string]: never; }>;


export type MetricsQuery = { metrics: Array<{ name: string, displayName: string, kind: string, higherIsBetter: boolean, rangeLow: number, rangeHigh: number | null, configurable: boolean }> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const RobustnessReportFieldsFragmentDoc = new TypedDocumentString(`
    fragment RobustnessReportFields on RobustnessReport {
  id
  metric
  suite
  mode
  status
  error
  signature
  higherIsBetter
  failingCount
  createdAt
  finishedAt
  overall {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  pooledAccuracy {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  phenomena {
    phenomenon
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  bootstrap {
    seed
    resamples
    confidence
  }
  tradeoff {
    with
    w
    accuracy
    signature
    ci {
      low
      high
    }
  }
}
    `, {"fragmentName":"RobustnessReportFields"}) as unknown as TypedDocumentString<RobustnessReportFieldsFragment, unknown>;
export const RegisterDocument = new TypedDocumentString(`
    mutation Register($name: String!, $email: String!, $password: String!) {
  register(name: $name, email: $email, password: $password) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<RegisterMutation, RegisterMutationVariables>;
export const LoginDocument = new TypedDocumentString(`
    mutation Login($login: String!, $password: String!) {
  login(login: $login, password: $password) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<LoginMutation, LoginMutationVariables>;
export const LogoutDocument = new TypedDocumentString(`
    mutation Logout {
  logout
}
    `) as unknown as TypedDocumentString<LogoutMutation, LogoutMutationVariables>;
export const TeamDetailsDocument = new TypedDocumentString(`
    query TeamDetails($id: ID!) {
  team(id: $id) {
    id
    name
    inviteCode
    createdAt
    members {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<TeamDetailsQuery, TeamDetailsQueryVariables>;
export const CreateMyTeamDocument = new TypedDocumentString(`
    mutation CreateMyTeam($name: String!) {
  createMyTeam(name: $name) {
    id
    name
    inviteCode
  }
}
    `) as unknown as TypedDocumentString<CreateMyTeamMutation, CreateMyTeamMutationVariables>;
export const JoinTeamDocument = new TypedDocumentString(`
    mutation JoinTeam($inviteCode: String!) {
  joinTeam(inviteCode: $inviteCode) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<JoinTeamMutation, JoinTeamMutationVariables>;
export const MyTokensDocument = new TypedDocumentString(`
    query MyTokens {
  myTokens {
    id
    label
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<MyTokensQuery, MyTokensQueryVariables>;
export const CreateTokenDocument = new TypedDocumentString(`
    mutation CreateToken($label: String!) {
  createToken(label: $label) {
    token
    info {
      id
      label
    }
  }
}
    `) as unknown as TypedDocumentString<CreateTokenMutation, CreateTokenMutationVariables>;
export const RevokeTokenDocument = new TypedDocumentString(`
    mutation RevokeToken($id: ID!) {
  revokeToken(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokeTokenMutation, RevokeTokenMutationVariables>;
export const TeamSubmissionsDocument = new TypedDocumentString(`
    query TeamSubmissions($teamId: ID!) {
  teamSubmissions(teamId: $teamId) {
    id
    systemName
    status
    isPrimary
    isBaseline
    moderation
    moderationReason
    createdAt
    phase {
      id
      name
      task {
        slug
        title
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TeamSubmissionsQuery, TeamSubmissionsQueryVariables>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    id
    name
    role
    teams {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const CreateTeamDocument = new TypedDocumentString(`
    mutation CreateTeam($name: String!, $members: [String!]!) {
  createTeam(name: $name, members: $members) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<CreateTeamMutation, CreateTeamMutationVariables>;
export const IssueTokenDocument = new TypedDocumentString(`
    mutation IssueToken($userName: String!, $label: String!) {
  issueToken(userName: $userName, label: $label)
}
    `) as unknown as TypedDocumentString<IssueTokenMutation, IssueTokenMutationVariables>;
export const LeaderboardDocument = new TypedDocumentString(`
    query Leaderboard($phaseId: ID!, $metric: String, $test: PairedTest, $correction: PValueCorrection) {
  leaderboard(
    phaseId: $phaseId
    metric: $metric
    test: $test
    correction: $correction
  ) {
    phaseId
    metric
    higherIsBetter
    metricSignature
    availableMetrics
    test
    correction
    seed
    resamples
    resamplesChosen
    smallestReachableP
    alpha
    significanceWarnings
    mainAggregation
    corpusSignature
    clusterDefinition
    clusterTests {
      aggregation
      test
      label
    }
    btFiniteMle
    btNote
    instanceCount
    disagreement
    notes
    systems {
      submissionId
      system
      team
      isBaseline
      n
      corpusScore
      corpusCi {
        mean
        ci
        low
        high
      }
      corpusSignature
      mean
      meanCi {
        low
        high
      }
      median
      medianCi {
        low
        high
      }
      bt
      btTier
      btCi {
        low
        high
      }
      elo
      trueskill {
        mu
        sigma
      }
      rank {
        mean
        median
        bt
        elo
        trueskill
        corpus
      }
      rankInterval {
        mean {
          best
          worst
        }
        median {
          best
          worst
        }
        bt {
          best
          worst
        }
        elo {
          best
          worst
        }
        trueskill {
          best
          worst
        }
        corpus {
          best
          worst
        }
      }
      cluster {
        mean
        median
        bt
        corpus
      }
      clusterDisagreement
    }
    pairs {
      aSubmissionId
      bSubmissionId
      a
      b
      wins
      losses
      ties
      pBt
      medianDiff
      meanDiff
      p
      pAdjusted
      pTest
      tests {
        ttest
        wilcoxon
        sign
        mood
        bootstrap
        ar
        bootstrapCorpus
        arCorpus
      }
      significant {
        mean
        median
        bt
        corpus
      }
    }
  }
}
    `) as unknown as TypedDocumentString<LeaderboardQuery, LeaderboardQueryVariables>;
export const SetPhaseSignificanceDocument = new TypedDocumentString(`
    mutation SetPhaseSignificance($phaseId: ID!, $resamples: Int, $seed: Int) {
  setPhaseSignificance(phaseId: $phaseId, resamples: $resamples, seed: $seed) {
    phaseId
    resamples
    seed
  }
}
    `) as unknown as TypedDocumentString<SetPhaseSignificanceMutation, SetPhaseSignificanceMutationVariables>;
export const ClosePhaseDocument = new TypedDocumentString(`
    mutation ClosePhase($id: ID!) {
  closePhase(id: $id) {
    id
    closedEarlyAt
  }
}
    `) as unknown as TypedDocumentString<ClosePhaseMutation, ClosePhaseMutationVariables>;
export const PublishPhaseDocument = new TypedDocumentString(`
    mutation PublishPhase($id: ID!, $published: Boolean!) {
  publishPhase(id: $id, published: $published) {
    id
    publishedAt
  }
}
    `) as unknown as TypedDocumentString<PublishPhaseMutation, PublishPhaseMutationVariables>;
export const UpdatePhaseDocument = new TypedDocumentString(`
    mutation UpdatePhase($id: ID!, $input: UpdatePhaseInput!) {
  updatePhase(id: $id, input: $input) {
    id
    closesAt
  }
}
    `) as unknown as TypedDocumentString<UpdatePhaseMutation, UpdatePhaseMutationVariables>;
export const MarkPrimaryDocument = new TypedDocumentString(`
    mutation MarkPrimary($id: ID!) {
  markPrimary(id: $id)
}
    `) as unknown as TypedDocumentString<MarkPrimaryMutation, MarkPrimaryMutationVariables>;
export const ModerateSubmissionDocument = new TypedDocumentString(`
    mutation ModerateSubmission($id: ID!, $moderation: Moderation!, $reason: String) {
  moderateSubmission(id: $id, moderation: $moderation, reason: $reason)
}
    `) as unknown as TypedDocumentString<ModerateSubmissionMutation, ModerateSubmissionMutationVariables>;
export const SetBaselineDocument = new TypedDocumentString(`
    mutation SetBaseline($id: ID!, $isBaseline: Boolean!) {
  setBaseline(id: $id, isBaseline: $isBaseline)
}
    `) as unknown as TypedDocumentString<SetBaselineMutation, SetBaselineMutationVariables>;
export const RescorePhaseDocument = new TypedDocumentString(`
    mutation RescorePhase($phaseId: ID!) {
  rescorePhase(phaseId: $phaseId)
}
    `) as unknown as TypedDocumentString<RescorePhaseMutation, RescorePhaseMutationVariables>;
export const AuditLogDocument = new TypedDocumentString(`
    query AuditLog($taskSlug: String) {
  auditLog(taskSlug: $taskSlug) {
    id
    actor
    action
    targetType
    targetId
    details
    createdAt
  }
}
    `) as unknown as TypedDocumentString<AuditLogQuery, AuditLogQueryVariables>;
export const TestInputPreviewDocument = new TypedDocumentString(`
    query TestInputPreview($id: ID!) {
  phase(id: $id) {
    id
    testInput(limit: 5) {
      total
      rows {
        id
        position
        source
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TestInputPreviewQuery, TestInputPreviewQueryVariables>;
export const RegistrationsDocument = new TypedDocumentString(`
    query Registrations($taskSlug: String!) {
  registrations(taskSlug: $taskSlug) {
    status
    createdAt
    team {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<RegistrationsQuery, RegistrationsQueryVariables>;
export const ApproveRegistrationDocument = new TypedDocumentString(`
    mutation ApproveRegistration($taskSlug: String!, $teamId: ID!) {
  approveRegistration(taskSlug: $taskSlug, teamId: $teamId) {
    status
  }
}
    `) as unknown as TypedDocumentString<ApproveRegistrationMutation, ApproveRegistrationMutationVariables>;
export const RegisterTeamDocument = new TypedDocumentString(`
    mutation RegisterTeam($taskSlug: String!, $teamId: ID!) {
  registerTeam(taskSlug: $taskSlug, teamId: $teamId) {
    status
  }
}
    `) as unknown as TypedDocumentString<RegisterTeamMutation, RegisterTeamMutationVariables>;
export const UpdateTaskRegistrationDocument = new TypedDocumentString(`
    mutation UpdateTaskRegistration($slug: String!, $registration: Registration!) {
  updateTask(slug: $slug, input: {registration: $registration}) {
    slug
    registration
  }
}
    `) as unknown as TypedDocumentString<UpdateTaskRegistrationMutation, UpdateTaskRegistrationMutationVariables>;
export const UpdateTaskDocument = new TypedDocumentString(`
    mutation UpdateTask($slug: String!, $input: UpdateTaskInput!) {
  updateTask(slug: $slug, input: $input) {
    slug
    title
  }
}
    `) as unknown as TypedDocumentString<UpdateTaskMutation, UpdateTaskMutationVariables>;
export const CreateTaskDocument = new TypedDocumentString(`
    mutation CreateTask($input: CreateTaskInput!) {
  createTask(input: $input) {
    id
    slug
  }
}
    `) as unknown as TypedDocumentString<CreateTaskMutation, CreateTaskMutationVariables>;
export const CreatePhaseDocument = new TypedDocumentString(`
    mutation CreatePhase($input: CreatePhaseInput!) {
  createPhase(input: $input) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<CreatePhaseMutation, CreatePhaseMutationVariables>;
export const UploadTestSetDocument = new TypedDocumentString(`
    mutation UploadTestSet($phaseId: ID!, $name: String!, $instances: [TestInstanceInput!]!) {
  uploadTestSet(phaseId: $phaseId, name: $name, instances: $instances) {
    id
    name
    instanceCount
    checksum
  }
}
    `) as unknown as TypedDocumentString<UploadTestSetMutation, UploadTestSetMutationVariables>;
export const RobustnessDocument = new TypedDocumentString(`
    query Robustness($taskSlug: String!) {
  robustness(taskSlug: $taskSlug) {
    ...RobustnessReportFields
  }
}
    fragment RobustnessReportFields on RobustnessReport {
  id
  metric
  suite
  mode
  status
  error
  signature
  higherIsBetter
  failingCount
  createdAt
  finishedAt
  overall {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  pooledAccuracy {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  phenomena {
    phenomenon
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  bootstrap {
    seed
    resamples
    confidence
  }
  tradeoff {
    with
    w
    accuracy
    signature
    ci {
      low
      high
    }
  }
}`) as unknown as TypedDocumentString<RobustnessQuery, RobustnessQueryVariables>;
export const RunRobustnessDocument = new TypedDocumentString(`
    mutation RunRobustness($taskSlug: String!, $metric: String) {
  runRobustness(taskSlug: $taskSlug, metric: $metric) {
    ...RobustnessReportFields
  }
}
    fragment RobustnessReportFields on RobustnessReport {
  id
  metric
  suite
  mode
  status
  error
  signature
  higherIsBetter
  failingCount
  createdAt
  finishedAt
  overall {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  pooledAccuracy {
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  phenomena {
    phenomenon
    accuracy
    n
    passed
    ci {
      low
      high
    }
  }
  bootstrap {
    seed
    resamples
    confidence
  }
  tradeoff {
    with
    w
    accuracy
    signature
    ci {
      low
      high
    }
  }
}`) as unknown as TypedDocumentString<RunRobustnessMutation, RunRobustnessMutationVariables>;
export const RobustnessTradeoffCardDocument = new TypedDocumentString(`
    query RobustnessTradeoffCard($phaseId: ID!, $metric: String) {
  reportCard(phaseId: $phaseId, metric: $metric) {
    phaseId
    humanScores
    metrics {
      metric
      tradeoff {
        with
        w
        segmentPearson
        segmentN
      }
    }
  }
}
    `) as unknown as TypedDocumentString<RobustnessTradeoffCardQuery, RobustnessTradeoffCardQueryVariables>;
export const SubmissionDocument = new TypedDocumentString(`
    query Submission($id: ID!) {
  submission(id: $id) {
    id
    phaseId
    systemName
    description
    isBaseline
    isPrimary
    moderation
    moderationReason
    duplicateOf {
      id
      systemName
    }
    status
    error
    retryNote
    progressDone
    progressTotal
    createdAt
    scoredAt
    team {
      id
      name
    }
    corpusScores {
      metric
      signature
      value
    }
    scoreHistory {
      metric
      signature
      value
      replacedAt
    }
  }
}
    `) as unknown as TypedDocumentString<SubmissionQuery, SubmissionQueryVariables>;
export const PhaseSubmissionsDocument = new TypedDocumentString(`
    query PhaseSubmissions($phaseId: ID!, $teamId: ID) {
  submissions(phaseId: $phaseId, teamId: $teamId) {
    id
    systemName
    isBaseline
    isPrimary
    moderation
    duplicateOf {
      id
      systemName
    }
    status
    progressDone
    progressTotal
    createdAt
    team {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<PhaseSubmissionsQuery, PhaseSubmissionsQueryVariables>;
export const InstanceScoresDocument = new TypedDocumentString(`
    query InstanceScores($submissionId: ID!, $metric: String!, $order: InstanceOrder!, $offset: Int!, $limit: Int!) {
  instanceScores(
    submissionId: $submissionId
    metric: $metric
    order: $order
    offset: $offset
    limit: $limit
  ) {
    total
    offset
    limit
    rows {
      instanceId
      position
      source
      references
      output
      score
    }
  }
}
    `) as unknown as TypedDocumentString<InstanceScoresQuery, InstanceScoresQueryVariables>;
export const QuotaDocument = new TypedDocumentString(`
    query Quota($phaseId: ID!, $teamId: ID!) {
  quota(phaseId: $phaseId, teamId: $teamId) {
    dailyLimit
    totalLimit
    usedToday
    usedTotal
    remaining
  }
}
    `) as unknown as TypedDocumentString<QuotaQuery, QuotaQueryVariables>;
export const RescoreDocument = new TypedDocumentString(`
    mutation Rescore($phaseId: ID, $submissionId: ID) {
  rescore(phaseId: $phaseId, submissionId: $submissionId)
}
    `) as unknown as TypedDocumentString<RescoreMutation, RescoreMutationVariables>;
export const TasksDocument = new TypedDocumentString(`
    query Tasks {
  tasks {
    id
    slug
    title
    registration
    kind
    sourceLang
    targetLang
    phases {
      id
      name
      opensAt
      closesAt
      isOpen
      scoredCount
      state
      closedEarlyAt
      publishedAt
    }
  }
}
    `) as unknown as TypedDocumentString<TasksQuery, TasksQueryVariables>;
export const TaskDocument = new TypedDocumentString(`
    query Task($slug: String!) {
  task(slug: $slug) {
    id
    slug
    title
    description
    kind
    sourceLang
    targetLang
    combinedWeight
    metrics {
      key
      name
      options
      definition {
        displayName
        higherIsBetter
      }
    }
    phases {
      id
      name
      opensAt
      closesAt
      isOpen
      scoredCount
      scoresVisible
      state
      publishedAt
      dailyLimit
      totalLimit
      testSet {
        id
        name
        instanceCount
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TaskQuery, TaskQueryVariables>;
export const PhaseDocument = new TypedDocumentString(`
    query Phase($id: ID!) {
  phase(id: $id) {
    id
    name
    opensAt
    closesAt
    isOpen
    scoredCount
    scoresVisible
    dailyLimit
    totalLimit
    testSet {
      id
      name
      instanceCount
    }
    task {
      id
      slug
      title
      kind
      sourceLang
      targetLang
      combinedWeight
      metrics {
        key
        name
        definition {
          displayName
          higherIsBetter
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PhaseQuery, PhaseQueryVariables>;
export const MetricsDocument = new TypedDocumentString(`
    query Metrics {
  metrics {
    name
    displayName
    kind
    higherIsBetter
    rangeLow
    rangeHigh
    configurable
  }
}
    `) as unknown as TypedDocumentString<MetricsQuery, MetricsQueryVariables>;