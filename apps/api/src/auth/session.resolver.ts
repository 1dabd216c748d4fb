import { Args, Context, Mutation, Resolver } from '@nestjs/graphql';
import { IdentityRepository } from '@podium/db';
import { RateLimitedError, SESSION_TTL_MS, UnauthenticatedError, nameKey, type AuthUser } from '@podium/domain';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { displayNameSchema } from '../common/display-name';
import { parseInput } from '../common/parse-input';
import { CurrentUser, SESSION_COOKIE, cookieValue } from './auth.guard';
import { UserType } from './identity.types';
import { SignInThrottles } from './login-throttle';

const FAILED_SIGN_IN = 'the name or e-mail and password do not match';

function addressOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

const registerSchema = z.object({
  name: displayNameSchema({ field: 'name', noAt: true }),
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- z.email() would check the format before trimming and lower-casing
  email: z.string().trim().toLowerCase().max(254).email('email must be an e-mail address'),
  password: z.string().min(10, 'password must have at least 10 characters').max(1000),
});

/**
 * Secure over https (behind a TLS-terminating proxy: when PODIUM_TRUST_PROXY trusts its
 * X-Forwarded-Proto) and on this machine; not over plain http elsewhere, where browsers would drop it.
 */
function sessionCookie(req: Request, value: string, maxAgeMs: number): string {
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(req.headers.host ?? '');
  const secure = req.secure || local;
  return [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.floor(maxAgeMs / 1000)}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** Sign-up and web sessions (an http-only cookie beside API tokens). */
@Resolver()
export class SessionResolver {
  constructor(
    private readonly identity: IdentityRepository,
    private readonly throttles: SignInThrottles,
  ) {}

  private async start(userId: string, ctx: { req: Request; res: Response }): Promise<UserType> {
    const token = await this.identity.createSession(userId);
    ctx.res.append('Set-Cookie', sessionCookie(ctx.req, token, SESSION_TTL_MS));
    const user = await this.identity.userBySession(token);
    if (!user) throw new Error('the session just created has no user');
    const teams = await this.identity.teamsOfUser(userId);
    return { id: user.id, name: user.name, role: user.role, teams: teams.map((t) => ({ id: t.id, name: t.name })), organisedTaskIds: user.organisedTaskIds };
  }

  @Mutation(() => UserType, {
    description:
      'Signs up a participant and starts a web session. CONFLICT when the name is taken (names are public); an e-mail address that already has an account is not attached to the new one, with the same answer, so registration never tells whether an address is registered. RATE_LIMITED past the registrations per address and hour.',
  })
  async register(
    @Args('name') name: string,
    @Args('email') email: string,
    @Args('password') password: string,
    @Context() ctx: { req: Request; res: Response },
  ): Promise<UserType> {
    const r = parseInput(registerSchema, { name, email, password });
    const wait = this.throttles.registrations.hit(addressOf(ctx.req));
    if (wait) throw new RateLimitedError(`at most ${this.throttles.registrations.limit} registrations per hour from one address; retry in ${wait} s`, wait);
    const user = await this.identity.register(r.name, r.email, r.password);
    return this.start(user.id, ctx);
  }

  @Mutation(() => UserType, {
    description:
      "Starts a web session (http-only cookie) for a login and password; a login with '@' is an e-mail address, else a user name (case and width do not matter). After repeated failures for one login or from one address each try waits 1, 2, 4 … s: RATE_LIMITED with retryAfterSeconds (HTTP 429, Retry-After).",
  })
  async login(@Args('login') login: string, @Args('password') password: string, @Context() ctx: { req: Request; res: Response }): Promise<UserType> {
    const trimmed = login.trim();
    // Keyed on the login as typed (normalised), known or not: the answer never tells which.
    const account = `login:${trimmed.includes('@') ? trimmed.toLowerCase() : nameKey(trimmed)}`;
    const address = addressOf(ctx.req);
    const { accounts, addresses } = this.throttles;
    const wait = Math.max(accounts.wait(account), addresses.wait(address));
    if (wait) throw new RateLimitedError(`too many failed sign-ins for this login or from this address; retry in ${wait} s`, wait);
    // Counted before the password is checked, so parallel guesses cannot all slip past the wait.
    accounts.fail(account);
    addresses.fail(address);
    const user = await this.identity.checkPassword(trimmed, password);
    if (!user) throw new UnauthenticatedError(FAILED_SIGN_IN);
    accounts.succeed(account);
    addresses.forgive(address);
    return this.start(user.id, ctx);
  }

  @Mutation(() => UserType, {
    description:
      "Starts a web session (http-only cookie) for the user of an API token, so that the web app never keeps the token in the page; UNAUTHENTICATED when it is unknown or revoked",
  })
  async startSessionWithToken(@Args('token') token: string, @Context() ctx: { req: Request; res: Response }): Promise<UserType> {
    const user = await this.identity.userByToken(token.trim());
    if (!user) throw new UnauthenticatedError('the API token is unknown or revoked');
    return this.start(user.id, ctx);
  }

  @Mutation(() => Boolean, { description: 'Ends the web session' })
  async logout(@CurrentUser() _user: AuthUser | null, @Context() ctx: { req: Request; res: Response }): Promise<boolean> {
    const token = cookieValue(ctx.req.headers.cookie, SESSION_COOKIE);
    if (token) await this.identity.endSession(token);
    ctx.res.append('Set-Cookie', sessionCookie(ctx.req, '', 0));
    return true;
  }
}
