import { randomBytes } from 'node:crypto';
import { ConflictError, ForbiddenError, NotFoundError, hashPassword, hashToken, newInviteCode, newToken, SESSION_TTL_MS, verifyPassword, type AuthUser } from '@podium/domain';
import type { Db, Tx } from './client';
import { Prisma, Role } from './generated/client';

/**
 * A valid hash of a random password, computed once: an unknown login is checked against it, so
 * it costs the same scrypt time as a known one and timing does not tell whether an account exists.
 */
let decoyHash: Promise<string> | undefined;
function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return decoyHash;
}

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}

/** What authentication loads with the user: memberships and organised tasks (ids only). */
const AUTH_USER_INCLUDE = { memberships: { select: { teamId: true } }, organisedTasks: { select: { taskId: true } } } as const;

function authUserOf(user: { id: string; name: string; role: Role; memberships: { teamId: string }[]; organisedTasks: { taskId: string }[] }): AuthUser {
  return { id: user.id, name: user.name, role: user.role, teamIds: user.memberships.map((m) => m.teamId), organisedTaskIds: user.organisedTasks.map((o) => o.taskId) };
}

export class IdentityRepository {
  constructor(private readonly db: Db) {}

  async createUser(name: string, role: Role) {
    try {
      return await this.db.user.create({ data: { name, role } });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictError(`user '${name}' already exists`, { field: 'name' });
      throw e;
    }
  }

  /** Changes a user's global role (the seed promotes its demo organiser to ADMIN). */
  async setRole(userId: string, role: Role) {
    return this.db.user.update({ where: { id: userId }, data: { role } });
  }

  /** Names of users by id, in one query (who closed or published a phase). */
  async namesByIds(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  }

  /** The user whose name is `name` up to case and NFKC (the unique index user_name_key_unique). */
  async userByName(name: string, tx: Tx | Db = this.db) {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "user" WHERE lower(normalize("name", NFKC)) = lower(normalize(${name}, NFKC)) LIMIT 1`;
    const id = rows[0]?.id;
    return id === undefined ? null : tx.user.findUnique({ where: { id } });
  }

  /**
   * Issues a token for a user and returns the plain token (shown once). `issuedById`: the
   * administrator issuing it on the user's behalf (shown to the user with the token).
   */
  async issueToken(userId: string, label: string, token: string = newToken(), issuedById: string | null = null): Promise<string> {
    const user = await this.db.user.findUnique({ where: { id: userId } });
    if (!user) throw new NotFoundError('user', userId);
    await this.db.apiToken.create({ data: { userId, label, tokenHash: hashToken(token), issuedById } });
    return token;
  }

  /**
   * An administrator issues a token for another user: the token and its audit entry (actor,
   * user, label, token id; never the value) are written in one transaction.
   */
  async issueTokenOnBehalf(issuerId: string, userName: string, label: string): Promise<{ token: string; tokenId: string; userId: string }> {
    const token = newToken();
    return this.db.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { name: userName } });
      if (!user) throw new NotFoundError('user', userName);
      const row = await tx.apiToken.create({ data: { userId: user.id, label, tokenHash: hashToken(token), issuedById: issuerId } });
      await tx.auditEntry.create({ data: { actorId: issuerId, action: 'token.issue', targetType: 'user', targetId: user.id, details: { userName, label, tokenId: row.id } } });
      return { token, tokenId: row.id, userId: user.id };
    });
  }

  async userByToken(token: string): Promise<AuthUser | null> {
    const row = await this.db.apiToken.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: { include: AUTH_USER_INCLUDE } },
    });
    if (!row || row.revokedAt) return null;
    // Record use at most once a minute per token, so authentication stays a read in the hot path.
    const now = new Date();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      await this.db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    }
    return authUserOf(row.user);
  }

  /**
   * A participant who signed up. Names are public (team pages list them), so a taken name is a
   * CONFLICT. E-mail addresses are not: an address already registered is not attached to the new
   * account (which then signs in by its name), and the answer is the same either way, so
   * registration never tells whether an address has an account (docs/adr/0016).
   */
  async register(name: string, email: string, password: string) {
    const passwordHash = await hashPassword(password);
    try {
      return await this.db.$transaction(async (tx) => {
        if (await this.userByName(name, tx)) throw new ConflictError(`the name '${name}' is taken`, { field: 'name' });
        const emailTaken = (await tx.user.findUnique({ where: { email }, select: { id: true } })) !== null;
        return tx.user.create({ data: { name, email: emailTaken ? null : email, passwordHash, role: Role.PARTICIPANT } });
      });
    } catch (e) {
      // A concurrent registration took the name between the check and the insert.
      if (isUniqueViolation(e)) throw new ConflictError(`the name '${name}' is taken`, { field: 'name' });
      throw e;
    }
  }

  /**
   * The user whose login and password match, or null. A login with `@` is an e-mail address
   * (user names cannot hold `@`), anything else a name (up to case and NFKC). Unknown logins and
   * accounts without a password are checked against a decoy hash: the same scrypt time.
   */
  async checkPassword(login: string, password: string) {
    const user = login.includes('@') ? await this.db.user.findUnique({ where: { email: login.toLowerCase() } }) : await this.userByName(login);
    if (!user?.passwordHash) {
      await verifyPassword(password, await decoyPasswordHash());
      return null;
    }
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
    const row = await this.db.session.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { include: AUTH_USER_INCLUDE } } });
    if (!row || row.expiresAt <= now) return null;
    return authUserOf(row.user);
  }

  async endSession(token: string): Promise<void> {
    await this.db.session.deleteMany({ where: { tokenHash: hashToken(token) } });
  }

  async tokensOf(userId: string) {
    return this.db.apiToken.findMany({
      where: { userId },
      orderBy: { createdAt: 'desc' },
      select: { id: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true, issuedBy: { select: { name: true } } },
    });
  }

  /** Revokes one of the user's tokens; NOT_FOUND for someone else's. */
  async revokeToken(userId: string, tokenId: string) {
    const token = await this.db.apiToken.findUnique({ where: { id: tokenId } });
    if (!token || token.userId !== userId) throw new NotFoundError('token', tokenId);
    if (token.revokedAt) return token;
    return this.db.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
  }

  /** The team whose name is `name` up to case and NFKC (the unique index team_name_key_unique). */
  async teamByNameKey(name: string, tx: Tx | Db = this.db) {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "team" WHERE lower(normalize("name", NFKC)) = lower(normalize(${name}, NFKC)) LIMIT 1`;
    const id = rows[0]?.id;
    return id === undefined ? null : tx.team.findUnique({ where: { id } });
  }

  /** A participant creates a team, becomes its first member and its owner. */
  async createOwnTeam(userId: string, name: string) {
    try {
      return await this.db.$transaction(async (tx) => {
        if (await this.teamByNameKey(name, tx)) throw new ConflictError(`the team name '${name}' is taken`, { field: 'name' });
        const team = await tx.team.create({ data: { name, inviteCode: newInviteCode(), ownerId: userId } });
        await tx.membership.create({ data: { userId, teamId: team.id } });
        return team;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictError(`the team name '${name}' is taken`, { field: 'name' });
      throw e;
    }
  }

  /**
   * Joins the team of an invite code. Where the team is registered for a task with one team per
   * person, a person already in another team registered for it is refused (FORBIDDEN, naming the task).
   */
  async joinTeam(userId: string, inviteCode: string) {
    return this.db.$transaction(async (tx) => {
      const team = await tx.team.findUnique({ where: { inviteCode } });
      // The code is a secret: never echo it back.
      if (!team) throw new NotFoundError('team with invite code', '(the code given)');
      const clash = await tx.taskRegistration.findFirst({
        where: { teamId: team.id, task: { oneTeamPerPerson: true, registrations: { some: { teamId: { not: team.id }, team: { members: { some: { userId } } } } } } },
        select: { task: { select: { slug: true } } },
      });
      if (clash) throw new ForbiddenError(`task '${clash.task.slug}' allows one team per person, and you are in another team registered for it`);
      await tx.membership.createMany({ data: [{ userId, teamId: team.id }], skipDuplicates: true });
      return team;
    });
  }

  /** Members in the order they joined (the owner passes to the first of them). */
  async membersOf(teamId: string) {
    const rows = await this.db.membership.findMany({ where: { teamId }, orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }], select: { user: { select: { id: true, name: true } } } });
    return rows.map((r) => r.user);
  }

  /** A new invite code for a team; the old one stops working at once. */
  async rotateInviteCode(teamId: string) {
    return this.db.team.update({ where: { id: teamId }, data: { inviteCode: newInviteCode() } });
  }

  /**
   * Removes a member (leaving, or removed by the owner or an organiser). When the owner goes,
   * ownership passes to the longest-standing remaining member (none: no owner). A team keeps its
   * submissions when its last member leaves.
   */
  async removeMember(teamId: string, userId: string) {
    return this.db.$transaction(async (tx) => {
      const team = await tx.team.findUnique({ where: { id: teamId } });
      if (!team) throw new NotFoundError('team', teamId);
      const { count } = await tx.membership.deleteMany({ where: { teamId, userId } });
      if (count === 0) throw new NotFoundError('member of the team', userId);
      if (team.ownerId !== userId) return team;
      const next = await tx.membership.findFirst({ where: { teamId }, orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }] });
      return tx.team.update({ where: { id: teamId }, data: { ownerId: next?.userId ?? null } });
    });
  }

  /** The tasks a team registered for (any status): their organisers may read its member names. */
  async taskIdsOfTeam(teamId: string): Promise<string[]> {
    return (await this.db.taskRegistration.findMany({ where: { teamId }, select: { taskId: true } })).map((r) => r.taskId);
  }

  async listTeams() {
    return this.db.team.findMany({ orderBy: { name: 'asc' } });
  }

  /**
   * Creates a team with its members (created as participants when new; an existing user is found
   * up to case and NFKC) in one transaction. Organisers' teams have no owner.
   */
  async createTeam(name: string, memberNames: string[]) {
    try {
      return await this.db.$transaction(async (tx) => {
        if (await this.teamByNameKey(name, tx)) throw new ConflictError(`team '${name}' already exists`, { field: 'name' });
        const team = await tx.team.create({ data: { name, inviteCode: newInviteCode() } });
        for (const member of memberNames) {
          const user = (await this.userByName(member, tx)) ?? (await tx.user.create({ data: { name: member, role: Role.PARTICIPANT } }));
          await tx.membership.createMany({ data: [{ userId: user.id, teamId: team.id }], skipDuplicates: true });
        }
        return team;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictError(`team '${name}' already exists`, { field: 'name' });
      throw e;
    }
  }

  async teamByName(name: string) {
    return this.teamByNameKey(name);
  }

  async teamById(id: string) {
    return this.db.team.findUnique({ where: { id } });
  }

  async teamsOfUser(userId: string) {
    return this.db.team.findMany({ where: { members: { some: { userId } } }, orderBy: { name: 'asc' } });
  }
}
