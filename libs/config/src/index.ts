import { hostname } from 'node:os';
import { z } from 'zod';

/** Raised at boot when the environment is invalid; the message lists every bad variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function parse<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv, app: string): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid environment for ${app}:\n${lines.join('\n')}`);
  }
  return result.data;
}

const databaseUrl = z
  .string({ error: 'DATABASE_URL is required (npm run up sets it for the embedded PostgreSQL)' })
  .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgresql:// URL');

const apiEnv = z.object({
  DATABASE_URL: databaseUrl,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * When PORT is taken at listen time (another process bound it since a free-port check), try
   * the next this many ports, then one the system picks; 0 (default): fail. `npm run up` sets it.
   */
  PODIUM_PORT_FALLBACK: z.coerce.number().int().min(0).max(1000).default(0),
  /** A file the api writes its real URL to once it listens (`npm run up` reads it). */
  PODIUM_LISTEN_FILE: z.string().optional(),
  /** Largest accepted upload (submission or test set), in bytes. */
  PODIUM_MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  /** Folder with the built web app (apps/web/dist); served at / when present. */
  PODIUM_WEB_DIST: z.string().optional(),
  /** Folder holding NLI model directories (models/<name>/); default the repository's models/. */
  PODIUM_MODELS_DIR: z.string().optional(),
  /** NLI model the worker uses for `nli` metrics unless a task's metric names one (reported as available or not). */
  PODIUM_NLI_MODEL: z.string().default('test-nli-tiny'),
  /** Text encoder for embedding metrics (BERTScore, …) unless a task's metric names one (reported as available or not). */
  PODIUM_EMBEDDING_MODEL: z.string().default('test-encoder-tiny'),
  /** pg-boss schema of the job queue; api and workers must agree (fault tests use their own). */
  PODIUM_QUEUE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default('pgboss'),
  /** Requests one client (the user of its API token or session, else its IP address) may make per window; 0 turns the limit off. */
  PODIUM_RATE_LIMIT: z.coerce.number().int().min(0).default(1200),
  /** Of those, uploads (submissions, test sets) per window. */
  PODIUM_RATE_LIMIT_UPLOADS: z.coerce.number().int().min(0).default(120),
  PODIUM_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Failed sign-ins of one account (name or e-mail) before each further try waits 1, 2, 4 … s. */
  PODIUM_LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins from one address (any accounts) before the same growing waits. */
  PODIUM_LOGIN_ADDRESS_FREE_FAILURES: z.coerce.number().int().min(1).default(20),
  /** Longest wait between sign-in tries, in seconds; failures older than this are forgotten. */
  PODIUM_LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Registrations one address may make per hour. */
  PODIUM_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Deepest GraphQL selection accepted (introspection is exempt). */
  PODIUM_GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(12),
  /** Most fields one GraphQL operation may select, fragments expanded. */
  PODIUM_GRAPHQL_MAX_FIELDS: z.coerce.number().int().min(1).default(2000),
  /** Most aliases one GraphQL operation may use (graphql-armor max-aliases). */
  PODIUM_GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  /** Highest cost of one GraphQL operation (graphql-armor cost-limit: objects 2, scalars 1, ×1.5 per level). */
  PODIUM_GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  /**
   * Largest JSON body (GraphQL) of a request without a valid identity, in bytes; signed-in callers
   * may send up to PODIUM_MAX_UPLOAD_BYTES (test sets and submissions travel as GraphQL variables).
   */
  PODIUM_ANONYMOUS_BODY_BYTES: z.coerce.number().int().positive().default(64 * 1024),
  /** Uploads (REST submissions, large GraphQL bodies) one signed-in identity may send at once (429 beyond). */
  PODIUM_UPLOADS_PER_IDENTITY: z.coerce.number().int().min(1).default(2),
  /** Uploads one address may send at once, whoever signs them (429 beyond). */
  PODIUM_UPLOADS_PER_ADDRESS: z.coerce.number().int().min(1).default(8),
  /**
   * Seconds a client has to send a whole request, headers and body (408 and closed beyond):
   * the largest upload must arrive at PODIUM_MAX_UPLOAD_BYTES / this rate (50 MB / 120 s ≈ 3.5 Mbit/s).
   */
  PODIUM_REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(120),
  /** Seconds a client has to send the request headers. */
  PODIUM_HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(20),
  /**
   * Express `trust proxy`: which proxies' X-Forwarded-For/-Proto to believe (`false`, `true`, a hop
   * count, or comma-separated addresses/subnets such as `loopback,10.0.0.0/8`). Behind a TLS-
   * terminating proxy, set it so that session cookies are `Secure` and limits count the client's
   * address rather than the proxy's. Default false: the headers are ignored.
   */
  PODIUM_TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  /** How often the api records the close of phases whose closesAt passed (freezing their primaries). */
  PODIUM_PHASE_CLOSE_SWEEP_SECONDS: z.coerce.number().min(0.2).max(3600).default(30),
  /**
   * Seconds the api waits for a new database connection, and for a query's answer, before the
   * request answers 503 (a database that cannot be reached, e.g. a network partition, would
   * otherwise hold requests until TCP gives up, minutes later). 0: no query deadline.
   */
  PODIUM_DB_CONNECT_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(600).default(5),
  PODIUM_DB_QUERY_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(15),
  /** Seconds /api/health waits for the database's answer before it reports it down (503). */
  PODIUM_HEALTH_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(2),
});
export type ApiConfig = z.infer<typeof apiEnv>;

export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return parse(apiEnv, env, 'api');
}

const workerEnv = z.object({
  DATABASE_URL: databaseUrl,
  /** Jobs a worker processes at once. */
  PODIUM_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Jobs fetched together: their NLI pairs share model batches (GPU throughput). */
  PODIUM_WORKER_BATCH: z.coerce.number().int().min(1).max(64).default(4),
  /** Seconds between queue polls when idle. */
  PODIUM_WORKER_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(0.5),
  /** Folder holding NLI model directories (models/<name>/). */
  PODIUM_MODELS_DIR: z.string().optional(),
  /** NLI model used for `nli` metrics unless a task's metric names one. */
  PODIUM_NLI_MODEL: z.string().default('test-nli-tiny'),
  /** onnxruntime execution provider: cuda falls back to cpu when unavailable. */
  PODIUM_NLI_PROVIDER: z.enum(['cpu', 'cuda']).default('cpu'),
  PODIUM_NLI_BATCH_SIZE: z.coerce.number().int().min(1).max(1024).default(32),
  PODIUM_NLI_THREADS: z.coerce.number().int().min(0).max(256).default(0),
  /** Text encoder for embedding metrics (BERTScore, …) unless a task's metric names one. */
  PODIUM_EMBEDDING_MODEL: z.string().default('test-encoder-tiny'),
  /** onnxruntime execution provider of the text encoders: cuda falls back to cpu when unavailable. */
  PODIUM_EMBEDDING_PROVIDER: z.enum(['cpu', 'cuda']).default('cpu'),
  /** Texts per encoder run. */
  PODIUM_EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(1024).default(32),
  /** Names the worker in logs, leases and heartbeats: must differ between live workers (pods all run as pid 1). */
  PODIUM_WORKER_NAME: z.string().min(1).default(`worker-${hostname()}-${process.pid}`),
  /** pg-boss schema of the job queue; api and workers must agree (fault tests use their own). */
  PODIUM_QUEUE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default('pgboss'),
  /** Lease timings (default: LEASE in @podium/contracts); shorter in fault tests. */
  PODIUM_LEASE_TTL_SECONDS: z.coerce.number().positive().max(3600).optional(),
  PODIUM_LEASE_RENEW_SECONDS: z.coerce.number().positive().max(600).optional(),
  PODIUM_LEASE_REAP_SECONDS: z.coerce.number().positive().max(600).optional(),
  /**
   * Seconds PostgreSQL lets a worker's session sit inside a transaction without a statement before
   * ending it and releasing its locks (a worker cut off mid-write would hold the submission's row
   * lock, and no reaper could take its lease back); 0 turns it off. Above every pause a healthy
   * worker makes inside a transaction.
   */
  PODIUM_DB_IDLE_TX_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /** Fault injection (fault tests, bench:faults): a pause before scoring, and one inside the final transaction. */
  PODIUM_FAULT_SCORING_DELAY_MS: z.coerce.number().int().min(0).default(0),
  PODIUM_FAULT_SAVE_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /**
   * Boards of more systems than this store their pairs apart from the board document, in tiles of
   * 32 × 32 systems served by `GET /api/phases/:id/leaderboard/pairs` (ADR 0038). 0: always.
   */
  PODIUM_LEADERBOARD_PAIRS_APART_ABOVE: z.coerce.number().int().min(0).default(100),
  /**
   * Threads that compute one phase's views together (each its share of the distinct analyses, the
   * default board in the first), so every view is stored sooner on a machine with cores to spare.
   */
  PODIUM_LEADERBOARD_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * How board threads yield to serving and scoring once they have nothing to keep pace with:
   * `idle` (SCHED_IDLE through chrt, watched for starvation, then nice 10) or `nice` (nice 10).
   */
  PODIUM_LEADERBOARD_YIELD: z.enum(['idle', 'nice']).default('idle'),
  /**
   * MiB of score columns a worker keeps between computations of a phase's boards, so that its
   * board threads read only the columns scored since (800 KB a system and metric at 100,000
   * instances; 240 MB for 100 systems and three metrics). 0: none, every column read each time.
   */
  PODIUM_LEADERBOARD_COLUMN_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(512),
  /** Seconds a SIGTERM'd worker lets its current jobs finish before handing them back. */
  PODIUM_WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** Cache folder of data sets (built-in robustness suites); default ~/.cache/podium (@podium/datasets). */
  PODIUM_CACHE: z.string().optional(),
  /** Folder or http(s) URL laid out like upstream, used instead of raw.githubusercontent.com. */
  PODIUM_DATA_MIRROR: z.string().optional(),
  /** Port of the worker's health endpoint (GET /healthz, /readyz; Kubernetes probes); none when unset, 0 picks one. */
  PODIUM_WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address the health endpoint listens on. */
  PODIUM_WORKER_HEALTH_HOST: z.string().min(1).default('0.0.0.0'),
});
export type WorkerConfig = z.infer<typeof workerEnv>;

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return parse(workerEnv, env, 'worker');
}
export { DEBUG_CONTEXTS, JsonLogger, TextLogger, debugLogs, useJsonLogs } from './json-logger';
