import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** A Prisma client on the pg driver adapter (no native engine; see docs/adr/0001). */
export function createDb(databaseUrl: string, options: { maxConnections?: number; onError?: (e: Error) => void; onQuery?: (sql: string) => void } = {}): Db {
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: options.maxConnections ?? 10, connectionTimeoutMillis: 10_000 },
    options.onError ? { onPoolError: options.onError, onConnectionError: options.onError } : undefined,
  );
  if (!options.onQuery) return new PrismaClient({ adapter });
  // Every SQL statement, for tests and benchmarks that count queries per request.
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  const onQuery = options.onQuery;
  client.$on('query', (e) => onQuery(e.query));
  return client;
}
