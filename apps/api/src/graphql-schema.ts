import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { IdentityResolver } from './auth/identity.resolver';
import { SessionResolver } from './auth/session.resolver';
import { TeamsResolver } from './teams/teams.resolver';
import { LeaderboardResolver } from './leaderboard/leaderboard.resolver';
import { RegistriesResolver } from './leaderboard/registries.resolver';
import { LeaderboardSystemResolver } from './leaderboard/leaderboard-system.resolver';
import { SystemPairResolver } from './leaderboard/system-pair.resolver';
import { LifecycleResolver } from './lifecycle/lifecycle.resolver';
import { PhasesResolver } from './phases/phases.resolver';
import { RobustnessResolver } from './robustness/robustness.resolver';
import { SubmissionsResolver } from './submissions/submissions.resolver';
import { MetricConfigResolver, MetricDefinitionsResolver } from './tasks/metric-config.resolver';
import { TaskKindsResolver } from './tasks/task-kinds.resolver';
import { TasksResolver } from './tasks/tasks.resolver';

/** Every resolver class of the API: the GraphQL schema is built from exactly these. */
export const RESOLVERS = [IdentityResolver, SessionResolver, TeamsResolver, TasksResolver, MetricConfigResolver, MetricDefinitionsResolver, TaskKindsResolver, PhasesResolver, SubmissionsResolver, LifecycleResolver, LeaderboardResolver, RegistriesResolver, LeaderboardSystemResolver, SystemPairResolver, RobustnessResolver] as const;

/** Where the emitted schema is committed (relative to the repository root). */
export const SCHEMA_FILE = 'apps/api/schema.graphql';

/** The header Nest writes on top of an emitted schema file. */
export const SCHEMA_FILE_HEADER = `# ------------------------------------------------------
# THIS FILE WAS AUTOMATICALLY GENERATED (DO NOT MODIFY)
# ------------------------------------------------------

`;

/** The schema file's text exactly as Nest emits it with `sortSchema: true`. */
export function schemaFileText(schema: GraphQLSchema): string {
  return SCHEMA_FILE_HEADER + printSchema(lexicographicSortSchema(schema));
}
