import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from './client';
import { ConflictError, NotFoundError } from './errors';
import { Prisma, Role } from './generated/client';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new random API token; only its hash is ever stored. */
export function newToken(): string {
  return `pod_${randomBytes(24).toString('base64url')}`;
}

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 };

/** `scrypt$N$r$p$salt$hash` (base64url); node:crypto only. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

/** How long a web session lasts. */
export const SESSION_TTL_MS = 14 * 24 * 3600_000;

export interface AuthUser {
  id: string;
  name: string;
  role: Role;
  teamIds: string[];
}

export class IdentityRepository {
  constructor(private readonly db: Db) {}

  async createUser(name: string, role: Role) {
    try {
      return await this.db.user.create({ data: { name, role } });
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
        throw new ConflictError(`user '${name}' already exists`, { field: 'name' });
      }
      throw e;
    }
  }

  /** Names of users by id, in one query (who closed or published a phase). */
  async namesByIds(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  }

  async userByName(name: string) {
    return this.db.user.findUnique({ where: { name } });
  }

  /** Issues a token for a user and returns the plain token (shown once). */
  async issueToken(userId: string, label: string, token: string = newToken()): Promise<string> {
    const user = await this.db.user.findUnique({ where: { id: userId } });
    if (!user) throw new NotFoundError('user', userId);
    await this.db.apiToken.create({ data: { userId, label, tokenHash: hashToken(token) } });
    return token;
  }

  async userByToken(token: string): Promise<AuthUser | null> {
    const row = await this.db.apiToken.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: { include: { memberships: true } } },
    });
    if (!row || row.revokedAt) return null;
    // Record use at most once a minute per token, so authentication stays a read in the hot path.
    const now = new Date();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      await this.db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    }
    return {
      id: row.user.id,
      name: row.user.name,
      role: row.user.role,
      teamIds: row.user.memberships.map((m) => m.teamId),
    };
  }

  /** A participant who signed up; name and e-mail are unique (CONFLICT with the field). */
  async register(name: string, email: string, password: string) {
    const passwordHash = await hashPassword(password);
    return this.db.$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { name } })) throw new ConflictError(`the name '${name}' is taken`, { field: 'name' });
      if (await tx.user.findUnique({ where: { email } })) throw new ConflictError(`the e-mail '${email}' is already registered`, { field: 'email' });
      return tx.user.create({ data: { name, email, passwordHash, role: Role.PARTICIPANT } });
    });
  }

  /** The user whose name or e-mail and password match, or null. */
  async checkPassword(login: string, password: string) {
    const user = await this.db.user.findFirst({ where: { OR: [{ name: login }, { email: login.toLowerCase() }] } });
    if (!user?.passwordHash) return null;
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }

  async setPassword(userId: string, password: string) {
    await this.db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
  }

  /** Starts a web session and returns its plain token (set as an http-only cookie). */
  async createSession(userId: string, now = new Date()): Promise<string> {
    const token = `ses_${randomBytes(24).toString('base64url')}`;
    await this.db.session.create({ data: { userId, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + SESSION_TTL_MS) } });
    return token;
  }

  async userBySession(token: string, now = new Date()): Promise<AuthUser | null> {
    const row = await this.db.session.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { include: { memberships: true } } } });
    if (!row || row.expiresAt <= now) return null;
    return { id: row.user.id, name: row.user.name, role: row.user.role, teamIds: row.user.memberships.map((m) => m.teamId) };
  }

  async endSession(token: string): Promise<void> {
    await this.db.session.deleteMany({ where: { tokenHash: hashToken(token) } });
  }

  async tokensOf(userId: string) {
    return this.db.apiToken.findMany({
      where: { userId },
      orderBy: { createdAt: 'desc' },
      select: { id: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
  }

  /** Revokes one of the user's tokens; NOT_FOUND for someone else's. */
  async revokeToken(userId: string, tokenId: string) {
    const token = await this.db.apiToken.findUnique({ where: { id: tokenId } });
    if (!token || token.userId !== userId) throw new NotFoundError('token', tokenId);
    if (token.revokedAt) return token;
    return this.db.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
  }

  /** A participant creates a team and becomes its first member. */
  async createOwnTeam(userId: string, name: string) {
    return this.db.$transaction(async (tx) => {
      if (await tx.team.findUnique({ where: { name } })) throw new ConflictError(`the team name '${name}' is taken`, { field: 'name' });
      const team = await tx.team.create({ data: { name } });
      await tx.membership.create({ data: { userId, teamId: team.id } });
      return team;
    });
  }

  async joinTeam(userId: string, inviteCode: string) {
    const team = await this.db.team.findUnique({ where: { inviteCode } });
    if (!team) throw new NotFoundError('team with invite code', inviteCode);
    await this.db.membership.createMany({ data: [{ userId, teamId: team.id }], skipDuplicates: true });
    return team;
  }

  async membersOf(teamId: string) {
    return this.db.user.findMany({ where: { memberships: { some: { teamId } } }, orderBy: { name: 'asc' }, select: { id: true, name: true } });
  }

  async listTeams() {
    return this.db.team.findMany({ orderBy: { name: 'asc' } });
  }

  /** Creates a team with its members (created as participants when new) in one transaction. */
  async createTeam(name: string, memberNames: string[]) {
    return this.db.$transaction(async (tx) => {
      if (await tx.team.findUnique({ where: { name } })) {
        throw new ConflictError(`team '${name}' already exists`, { field: 'name' });
      }
      const team = await tx.team.create({ data: { name } });
      for (const member of memberNames) {
        const user =
          (await tx.user.findUnique({ where: { name: member } })) ??
          (await tx.user.create({ data: { name: member, role: Role.PARTICIPANT } }));
        await tx.membership.create({ data: { userId: user.id, teamId: team.id } });
      }
      return team;
    });
  }

  async teamByName(name: string) {
    return this.db.team.findUnique({ where: { name } });
  }

  async teamById(id: string) {
    return this.db.team.findUnique({ where: { id } });
  }

  async teamsOfUser(userId: string) {
    return this.db.team.findMany({ where: { members: { some: { userId } } }, orderBy: { name: 'asc' } });
  }
}
