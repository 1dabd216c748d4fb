import { Logger, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ApiConfig } from '@podium/config';
import { IdentityRepository } from '@podium/db';
import path from 'node:path';
import { AppModule } from './app.module';
import { RateLimiter, rateLimitMiddleware } from './common/rate-limit';
import { requestContextMiddleware } from './common/request-context';
import { jsonBodyMiddleware, uploadGate, type BodyLimits } from './edge/body-gates';
import { csrfMiddleware } from './edge/csrf.middleware';
import { identifyMiddleware } from './edge/identify.middleware';
import { securityHeaders } from './edge/security-headers';
import { UploadSlots } from './edge/upload-slots';
import { SCHEMA_FILE } from './graphql-schema';
import { serveWebApp } from './web/web-app';
import { localWritesMiddleware } from './common/local-writes';

export interface CreateAppOptions {
  /** Write the GraphQL schema to apps/api/schema.graphql (the dev server does; tests do not). */
  emitSchema?: boolean;
  /** Nest's logger; false silences it (tests). */
  logger?: false | Logger | LoggerService;
  /** Repository root, to resolve the schema file and the default web app folder. */
  root?: string;
  /**
   * pg-boss schema for the jobs this app sends; default `pgboss` (the worker's). Tests that
   * share a database with running workers use their own, so no worker scores their submissions.
   */
  queueSchema?: string;
  /** Called with every SQL statement the app's Prisma client runs (tests counting queries per request). */
  onQuery?: (sql: string) => void;
}

/** Builds the API (GraphQL at /graphql, REST under /api, the web app at /); not yet listening. */
export async function createApp(config: ApiConfig, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  const root = options.root ?? process.cwd();
  // NLI availability is checked against the models folder the worker uses by default.
  config = { ...config, PODIUM_MODELS_DIR: config.PODIUM_MODELS_DIR ?? path.join(root, 'models') };
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { schemaFile: options.emitSchema ? `${root}/${SCHEMA_FILE}` : false, queueSchema: options.queueSchema ?? config.PODIUM_QUEUE_SCHEMA, ...(options.onQuery ? { onQuery: options.onQuery } : {}) }),
    { bodyParser: false, logger: options.logger === false ? false : (options.logger ?? undefined) },
  );
  app.set('trust proxy', config.PODIUM_TRUST_PROXY);
  app.disable('x-powered-by');
  // First: a request id for every log line and error, the security headers every answer carries,
  // then the per-client rate limits (429), all before any body is read; a client is the user its
  // token or session resolves to, else its address (a middleware, not @nestjs/throttler's guard: guards run after the body is parsed and
  // once per GraphQL resolver; see docs/adr/0016-accounts-and-limits.md).
  app.use(requestContextMiddleware({ accessLog: options.logger !== false }));
  // Which REST requests write (GraphQL's mutations: localWritesPlugin): reads kept for reuse are not reused across them.
  app.use(localWritesMiddleware());
  app.use(securityHeaders());
  const windowMs = config.PODIUM_RATE_WINDOW_SECONDS * 1000;
  app.use(rateLimitMiddleware(new RateLimiter(config.PODIUM_RATE_LIMIT, windowMs), new RateLimiter(config.PODIUM_RATE_LIMIT_UPLOADS, windowMs), app.get(IdentityRepository)));
  // The web app's dev server (Vite, another port on this machine) may call the API directly with
  // a Bearer token; credentials (the session cookie) are never allowed cross-origin.
  app.enableCors({ origin: /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/ });
  // Cookie sessions on state-changing REST routes must come from this origin (403 before any body).
  app.use(csrfMiddleware());
  // Who is asking, from the headers, before any body is read: the body limits depend on it (the
  // rate limiter has resolved most callers already; this only marks the credential).
  app.use(identifyMiddleware(app.get(IdentityRepository)));
  const limits: BodyLimits = {
    maxUploadBytes: config.PODIUM_MAX_UPLOAD_BYTES,
    anonymousBodyBytes: config.PODIUM_ANONYMOUS_BODY_BYTES,
    uploadsPerIdentity: config.PODIUM_UPLOADS_PER_IDENTITY,
    uploadsPerAddress: config.PODIUM_UPLOADS_PER_ADDRESS,
  };
  const slots = new UploadSlots();
  // REST uploads: anonymous, too large or too many at once are refused on the headers (closed, unread).
  app.use(uploadGate(limits, slots));
  // JSON (GraphQL) bodies: anonymous callers get a small limit, signed-in ones the upload limit;
  // past it the body is cut off (413, closed), never read to its end.
  app.use(jsonBodyMiddleware(limits, slots));
  serveWebApp(app, config.PODIUM_WEB_DIST ?? `${root}/apps/web/dist`);
  await app.init();
  return app;
}
