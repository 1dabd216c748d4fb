import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { ApiConfig } from '@podium/config';
import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { IdentityRepository } from '@podium/db';
import { AuthGuard, authenticate, type AuthenticatedRequest } from './auth/auth.guard';
import { authorizationPlugin } from './common/authorization.plugin';
import { DomainErrorFilter } from './common/domain-error.filter';
import { graphqlArmorRules, graphqlLimitsPlugin } from './common/graphql-limits.plugin';
import { rateLimitedStatusPlugin } from './common/rate-limited-status.plugin';
import { landingPagePlugin } from './common/landing-page.plugin';
import { noStorePlugins } from './common/no-store.plugin';
import { StorableTextPipe } from './common/storable-text';
import { DbModule } from './db.module';
import { BundlesModule } from './bundles/bundles.module';
import { DownloadsModule } from './downloads/downloads.module';
import { HealthModule } from './health/health.module';
import { LeaderboardModule } from './leaderboard/leaderboard.module';
import { BoardAnswers } from './leaderboard/board-answers';
import { LeaderboardService } from './leaderboard/leaderboard.service';
import { ApiDocsModule } from './api-docs/api-docs.module';
import { AuthModule } from './auth/auth.module';
import { PhasesModule } from './phases/phases.module';
import { RobustnessModule } from './robustness/robustness.module';
import { SubmissionsModule } from './submissions/submissions.module';
import { TasksModule } from './tasks/tasks.module';
import { TeamsModule } from './teams/teams.module';
import { TestInputModule } from './test-input/test-input.module';
import { localWritesPlugin } from './common/local-writes';

export interface AppModuleOptions {
  /** Path to write the emitted schema to, or false to keep it in memory (tests). */
  schemaFile: string | false;
  /** pg-boss schema; default `pgboss`, the one the worker consumes. */
  queueSchema?: string;
  onQuery?: (sql: string) => void;
}

/** Errors that escape the filter (field resolvers, Apollo internals) are hidden the same way. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = formatted.extensions?.['code'];
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  if (code === 'INTERNAL_SERVER_ERROR' && original && !(original instanceof GraphQLError)) {
    return { message: 'internal server error', locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  return formatted;
}

@Module({})
export class AppModule {
  static forRoot(config: ApiConfig, options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DbModule.forRoot(config, options.queueSchema, options.onQuery),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [LeaderboardModule],
          inject: [IdentityRepository, BoardAnswers, LeaderboardService],
          useFactory: (identity: IdentityRepository, answers: BoardAnswers, leaderboards: LeaderboardService): ApolloDriverConfig => ({
            autoSchemaFile: options.schemaFile === false ? true : options.schemaFile,
            sortSchema: true,
            // Our own offline console instead of GraphiQL/Sandbox, which load their code from a CDN.
            playground: false,
            plugins: [
              landingPagePlugin(),
              graphqlLimitsPlugin({ maxDepth: config.PODIUM_GRAPHQL_MAX_DEPTH, maxFields: config.PODIUM_GRAPHQL_MAX_FIELDS }),
              // Deny by default: unclassified fields and unmet static rules are refused before anything resolves.
              authorizationPlugin((req) => authenticate(identity, req as AuthenticatedRequest)),
              rateLimitedStatusPlugin(),
              ...noStorePlugins(),
              // Mutations, so that reads kept for reuse are not reused across them (LeaderboardService.readCurrent).
              localWritesPlugin(),
              // After the checks above: answers of stored boards are cached by board and caller's role.
              answers.plugin((req) => authenticate(identity, req as AuthenticatedRequest), (phaseId, options, user) => leaderboards.view(phaseId, options, user)),
            ],
            validationRules: graphqlArmorRules({ maxAliases: config.PODIUM_GRAPHQL_MAX_ALIASES, maxCost: config.PODIUM_GRAPHQL_MAX_COST }),
            introspection: true,
            includeStacktraceInErrorResponses: false,
            fieldResolverEnhancers: ['filters'],
            context: ({ req, res }: { req: Request; res: Response }) => ({ req, res }),
            formatError: formatGraphQLError,
          }),
        }),
        AuthModule,
        TeamsModule,
        TestInputModule,
        ApiDocsModule,
        TasksModule,
        PhasesModule,
        SubmissionsModule,
        LeaderboardModule,
        DownloadsModule,
        BundlesModule,
        RobustnessModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: DomainErrorFilter },
        // Every argument of every endpoint: text PostgreSQL cannot store is refused (400).
        { provide: APP_PIPE, useClass: StorableTextPipe },
      ],
    };
  }
}
