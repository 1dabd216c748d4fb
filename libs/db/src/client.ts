import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * A Prisma client on the pg driver adapter (no native engine; see docs/adr/0001).
 * `connectTimeoutMs` (default 10 s): a new connection not made by then fails; `queryTimeoutMs`
 * (default none): a query without an answer by then fails and its connection is dropped from the
 * pool (a partitioned database would otherwise hold it until TCP gives up; ADR 0019).
 */
export function createDb(
  databaseUrl: string,
  options: {
    maxConnections?: number;
    onError?: (e: Error) => void;
    onQuery?: (sql: string) => void;
    connectTimeoutMs?: number;
    queryTimeoutMs?: number;
    /**
     * PostgreSQL ends a session that sits this long inside a transaction without sending its next
     * statement (`idle_in_transaction_session_timeout`), releasing its row locks. A process cut
     * off mid-transaction (a network partition) otherwise holds them until TCP gives up, and
     * every lease reaper skips the locked row (docs/adr/0017).
     */
    idleInTransactionTimeoutMs?: number;
  } = {},
): Db {
  const adapter = new PrismaPg(
    {
      connectionString: databaseUrl,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs, keepAlive: true } : {}),
      ...(options.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs } : {}),
    },
    options.onError ? { onPoolError: options.onError, onConnectionError: options.onError } : undefined,
  );
  if (!options.onQuery) return new PrismaClient({ adapter });
  // Every SQL statement, for tests and benchmarks that count queries per request.
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  const onQuery = options.onQuery;
  client.$on('query', (e) => onQuery(e.query));
  return client;
}
