import { randomUUID } from 'node:crypto';
import { createDb, IdentityRepository, Role, type Db } from './index';
import { defined } from '../../../test/support/defined';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('IdentityRepository (real PostgreSQL)', () => {
  let db: Db;
  let identity: IdentityRepository;
  beforeAll(() => {
    db = createDb(defined(url), { maxConnections: 2 });
    identity = new IdentityRepository(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it('stores only the hash of a token, finds its user by the token, and records when it was used', async () => {
    const user = await identity.createUser(`user-${randomUUID().slice(0, 8)}`, Role.PARTICIPANT);
    const token = await identity.issueToken(user.id, 'test');
    const row = await db.apiToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.tokenHash).not.toContain(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.lastUsedAt).toBeNull();
    expect((await identity.userByToken(token))?.id).toBe(user.id);
    expect((await db.apiToken.findFirstOrThrow({ where: { userId: user.id } })).lastUsedAt).not.toBeNull();
    expect(await identity.userByToken(token + 'x')).toBeNull();
  });

  it('refuses a revoked token', async () => {
    const user = await identity.createUser(`user-${randomUUID().slice(0, 8)}`, Role.PARTICIPANT);
    const token = await identity.issueToken(user.id, 'test');
    await db.apiToken.updateMany({ where: { userId: user.id }, data: { revokedAt: new Date() } });
    expect(await identity.userByToken(token)).toBeNull();
  });
});
