import { createHash, randomBytes } from 'node:crypto';
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
