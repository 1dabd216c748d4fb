/**
 * Prisma CLI configuration for an offline machine: the JS engine with the pg driver adapter
 * replaces the native schema engine that Prisma would otherwise download.
 * See docs/adr/0001-prisma-offline.md for why, and for the two workarounds below.
 */
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { randomUUID } from 'node:crypto';

type QueryResultLike = { fields?: { dataTypeID: number }[] };
type Query = (this: pg.Client, ...args: unknown[]) => unknown;

// Workaround 1: adapter-pg rejects the Postgres-internal column types "char" (OID 18) and
// "name" (OID 19) that schema introspection returns; relabel them as text (OID 25).
const clientProto = pg.Client.prototype as unknown as { query: Query };
const originalQuery = clientProto.query;
function relabel(result: unknown): unknown {
  for (const r of ([] as unknown[]).concat(result ?? [])) {
    (r as QueryResultLike | undefined)?.fields?.forEach((f) => {
      if (f.dataTypeID === 18 || f.dataTypeID === 19) f.dataTypeID = 25;
    });
  }
  return result;
}
clientProto.query = function (this: pg.Client, ...args: unknown[]) {
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    const cb = args.pop() as (e: unknown, r: unknown) => void;
    return originalQuery.call(this, ...args, (e: unknown, r: unknown) => cb(e, e ? r : relabel(r)));
  }
  const ret = originalQuery.apply(this, args);
  return ret instanceof Promise ? ret.then(relabel) : ret;
};

function connection() {
  const url = new URL(process.env['DATABASE_URL'] ?? '');
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password) || undefined,
    database: url.pathname.slice(1),
    allowExitOnIdle: true, // otherwise each CLI call waits ~10 s for idle connections
  };
}

// Workaround 2: PrismaPg.connectToShadowDb drops the shadow database before closing its pool.
function adapterFactory() {
  const c = connection();
  const base = new PrismaPg(c);
  return Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
    connect: () => base.connect(),
    async connectToShadowDb() {
      const admin = new pg.Client(c);
      await admin.connect();
      const db = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
      await admin.query(`CREATE DATABASE "${db}"`);
      const shadow = await new PrismaPg({ ...c, database: db }).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        await admin.end();
      };
      return shadow;
    },
  });
}

// `prisma generate` needs no database, but without DATABASE_URL the CLI falls back to
// downloading a native engine (which fails offline). A placeholder keeps generate offline on a
// fresh clone; commands that connect (migrate) still fail clearly on it.
process.env['DATABASE_URL'] ??= 'postgresql://localhost:5432/podium-placeholder';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => adapterFactory(),
});
