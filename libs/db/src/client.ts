import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** A Prisma client on the pg driver adapter (no native engine; see docs/adr/0001). */
export function createDb(databaseUrl: string, options: { maxConnections?: number; onError?: (e: Error) => void } = {}): Db {
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: options.maxConnections ?? 10, connectionTimeoutMillis: 10_000 },
    options.onError ? { onPoolError: options.onError, onConnectionError: options.onError } : undefined,
  );
  return new PrismaClient({ adapter });
}
