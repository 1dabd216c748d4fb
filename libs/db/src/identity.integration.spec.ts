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

  it('makes names unique up to case and NFKC in the database itself, not only in the repository', async () => {
    const base = `Ada${randomUUID().slice(0, 8)}`;
    await identity.createUser(base, Role.PARTICIPANT);
    // A direct insert (no repository check) still meets the unique expression index.
    await expect(db.user.create({ data: { name: base.toLowerCase() } })).rejects.toMatchObject({ code: 'P2002' });
    // U+FF21 FULLWIDTH LATIN CAPITAL LETTER A: NFKC "A".
    await expect(identity.createUser(`\uFF21${base.slice(1)}`, Role.PARTICIPANT)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await identity.userByName(base.toUpperCase()))?.name).toBe(base);
    const team = `Crew${randomUUID().slice(0, 8)}`;
    await identity.createTeam(team, []);
    await expect(identity.createTeam(team.toUpperCase(), [])).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('registers with an address that has an account without attaching it, and answers the same', async () => {
    const id = randomUUID().slice(0, 8);
    const first = await identity.register(`first-${id}`, `shared-${id}@example.org`, 'first password');
    const second = await identity.register(`second-${id}`, `shared-${id}@example.org`, 'second password');
    expect(first.email).toBe(`shared-${id}@example.org`);
    expect(second.email).toBeNull();
    expect((await identity.checkPassword(`shared-${id}@example.org`, 'first password'))?.id).toBe(first.id);
    expect((await identity.checkPassword(`SECOND-${id}`, 'second password'))?.id).toBe(second.id);
    expect(await identity.checkPassword(`nobody-${id}`, 'any password')).toBeNull();
  });

  it('gives teams 128-bit invite codes, rotates them, and passes ownership to the longest-standing member', async () => {
    const id = randomUUID().slice(0, 8);
    const owner = await identity.createUser(`own-${id}`, Role.PARTICIPANT);
    const mate = await identity.createUser(`mate-${id}`, Role.PARTICIPANT);
    const late = await identity.createUser(`late-${id}`, Role.PARTICIPANT);
    const team = await identity.createOwnTeam(owner.id, `team-${id}`);
    expect(team.ownerId).toBe(owner.id);
    expect(Buffer.from(team.inviteCode, 'base64url')).toHaveLength(16);
    await identity.joinTeam(mate.id, team.inviteCode);
    await identity.joinTeam(late.id, team.inviteCode);
    const rotated = await identity.rotateInviteCode(team.id);
    expect(rotated.inviteCode).not.toBe(team.inviteCode);
    await expect(identity.joinTeam(owner.id, team.inviteCode)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const after = await identity.removeMember(team.id, owner.id);
    const members = await identity.membersOf(team.id);
    // Joined within a millisecond of each other the two may tie; the first listed is the owner either way.
    expect(members.map((m) => m.name).sort()).toEqual([`late-${id}`, `mate-${id}`]);
    expect(after.ownerId).toBe(members[0]?.id);
  });
});
