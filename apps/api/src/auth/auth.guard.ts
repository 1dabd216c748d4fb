import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ForbiddenError, IdentityRepository, UnauthenticatedError, type AuthUser } from '@podium/db';
import type { Request } from 'express';

/** Who may call a resolver or route; without this metadata anonymous callers are allowed. */
export type Access = 'ORGANISER' | 'USER';
const ACCESS_KEY = 'podium:access';

/** Only organisers may call this. */
export const OrganiserOnly = () => SetMetadata(ACCESS_KEY, 'ORGANISER' satisfies Access);
/** Any user with a valid token may call this. */
export const SignedIn = () => SetMetadata(ACCESS_KEY, 'USER' satisfies Access);

interface AuthenticatedRequest extends Request {
  podiumUser?: AuthUser | null;
}

export function requestOf(context: ExecutionContext): AuthenticatedRequest {
  if (context.getType<string>() === 'graphql') {
    return GqlExecutionContext.create(context).getContext<{ req: AuthenticatedRequest }>().req;
  }
  return context.switchToHttp().getRequest<AuthenticatedRequest>();
}

/** Extracts the token from `Authorization: Bearer <token>`; undefined when absent. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthenticatedError('the Authorization header must be "Bearer <token>"');
  return match[1];
}

export const SESSION_COOKIE = 'podium_session';

/** The value of one cookie from a Cookie header (no dependency for one name). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * Resolves the Bearer token (or else the web session cookie) to a user once per request
 * (anonymous when absent), rejects unknown or revoked tokens, and enforces `@OrganiserOnly()` / `@SignedIn()`.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly identity: IdentityRepository,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = requestOf(context);
    if (req.podiumUser === undefined) {
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) {
        // The web app's session cookie; an expired or unknown one just means anonymous.
        const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
        req.podiumUser = session ? await this.identity.userBySession(session) : null;
      } else {
        const user = await this.identity.userByToken(token);
        if (!user) throw new UnauthenticatedError('the API token is unknown or revoked');
        req.podiumUser = user;
      }
    }
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (!access) return true;
    const user = req.podiumUser;
    if (!user) throw new UnauthenticatedError();
    if (access === 'ORGANISER' && user.role !== 'ORGANISER') {
      throw new ForbiddenError(`only organisers may do this; '${user.name}' is a participant`);
    }
    return true;
  }
}

/** The caller (null when anonymous); the AuthGuard has resolved it before the handler runs. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AuthUser | null => {
  return requestOf(context).podiumUser ?? null;
});
