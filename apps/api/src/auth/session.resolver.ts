import { Args, Context, Mutation, Resolver } from '@nestjs/graphql';
import { IdentityRepository, SESSION_TTL_MS, UnauthenticatedError, type AuthUser } from '@podium/db';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { parseInput } from '../common/parse-input';
import { CurrentUser, SESSION_COOKIE, cookieValue } from './auth.guard';
import { UserType } from './identity.types';

const registerSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'name must have at least 2 characters')
    .max(100, 'name may have at most 100 characters')
    .regex(/^[^\p{Cc}]*$/u, 'name must not contain control characters'),
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- z.email() would check the format before trimming and lower-casing
  email: z.string().trim().toLowerCase().max(254).email('email must be an e-mail address'),
  password: z.string().min(10, 'password must have at least 10 characters').max(1000),
});

/** Secure unless plain http to a host other than this machine (where browsers would drop it). */
function sessionCookie(req: Request, value: string, maxAgeMs: number): string {
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(req.headers.host ?? '');
  const secure = req.secure || req.headers['x-forwarded-proto'] === 'https' || local;
  return [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.floor(maxAgeMs / 1000)}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** Sign-up and web sessions (an http-only cookie beside API tokens). */
@Resolver()
export class SessionResolver {
  constructor(private readonly identity: IdentityRepository) {}

  private async start(userId: string, ctx: { req: Request; res: Response }): Promise<UserType> {
    const token = await this.identity.createSession(userId);
    ctx.res.append('Set-Cookie', sessionCookie(ctx.req, token, SESSION_TTL_MS));
    const user = await this.identity.userBySession(token);
    if (!user) throw new Error('the session just created has no user');
    const teams = await this.identity.teamsOfUser(userId);
    return { id: user.id, name: user.name, role: user.role, teams: teams.map((t) => ({ id: t.id, name: t.name })), organisedTaskIds: user.organisedTaskIds };
  }

  @Mutation(() => UserType, { description: 'Signs up a participant (CONFLICT when the name or e-mail is taken) and starts a web session' })
  async register(
    @Args('name') name: string,
    @Args('email') email: string,
    @Args('password') password: string,
    @Context() ctx: { req: Request; res: Response },
  ): Promise<UserType> {
    const r = parseInput(registerSchema, { name, email, password });
    const user = await this.identity.register(r.name, r.email, r.password);
    return this.start(user.id, ctx);
  }

  @Mutation(() => UserType, { description: 'Starts a web session (http-only cookie) for a name or e-mail and password' })
  async login(@Args('login') login: string, @Args('password') password: string, @Context() ctx: { req: Request; res: Response }): Promise<UserType> {
    const user = await this.identity.checkPassword(login.trim(), password);
    if (!user) throw new UnauthenticatedError('the name or e-mail and password do not match');
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
