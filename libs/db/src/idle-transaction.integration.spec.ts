import { randomUUID } from 'node:crypto';
import { createDb, IdentityRepository, Role, type Db } from './index';

// Real PostgreSQL under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

/**
 * A process cut off from the database in the middle of a transaction (a network partition)
 * stops sending statements; PostgreSQL must end its session and free its row locks, or every
 * lease reaper skips the locked submission until TCP gives up (the partition bench's 43 s
 * take-back). Simulated here by a transaction that waits without sending anything.
 */
describeDb('idleInTransactionTimeoutMs (real PostgreSQL)', () => {
  const dbs: Db[] = [];
  afterAll(async () => {
    // A pool whose session the server ended may never settle its end(): bounded.
    await Promise.all(dbs.map((d) => Promise.race([d.$disconnect(), new Promise((r) => setTimeout(r, 3_000).unref())])));
  });

  async function lockedForLong(idleInTransactionTimeoutMs?: number): Promise<{ freed: boolean; holder: Promise<unknown> }> {
    const holderDb = createDb(url ?? '', { maxConnections: 1, onError: () => undefined, ...(idleInTransactionTimeoutMs ? { idleInTransactionTimeoutMs } : {}) });
    const other = createDb(url ?? '', { maxConnections: 1 });
    dbs.push(holderDb, other);
    const userId = (await new IdentityRepository(other).createUser(`idle-tx-${randomUUID().slice(0, 8)}`, Role.PARTICIPANT)).id;
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((r) => (locked = r));
    // Holds the row lock, then goes silent for 4 s (as a partitioned worker would, forever).
    const holder = holderDb
      .$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT id FROM "user" WHERE id = ${userId}::uuid FOR UPDATE`;
          locked();
          await new Promise((r) => setTimeout(r, 4_000));
        },
        { timeout: 30_000 },
      )
      .catch((e: unknown) => e);
    await isLocked;
    await new Promise((r) => setTimeout(r, 2_500));
    // Another session takes the row at once, or learns that it is still locked.
    const rows = await other.$queryRaw<{ id: string }[]>`SELECT id::text FROM "user" WHERE id = ${userId}::uuid FOR UPDATE SKIP LOCKED`;
    return { freed: rows.length === 1, holder };
  }

  it('frees the row lock of a session that went silent inside a transaction', async () => {
    const { freed, holder } = await lockedForLong(1_000);
    expect(freed).toBe(true);
    // The silent transaction did not commit: its session was ended under it.
    expect(await holder).toBeInstanceOf(Error);
  });

  it('control: without the timeout the silent transaction keeps its lock', async () => {
    const { freed, holder } = await lockedForLong();
    expect(freed).toBe(false);
    expect(await holder).toBeUndefined();
  });
});
