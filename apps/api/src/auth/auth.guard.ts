import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { IdentityRepository } from '@podium/db';
import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/domain';
import type { Request } from 'express';
import { REST_RULES, meets, refusalText, staticRequirement, unclassifiedText } from '../common/authorization';

export interface AuthenticatedRequest extends Request {
  podiumUser?: AuthUser | null;
  /** The identify middleware's look-up met an unreachable database (rethrown: 503, no second wait). */
  podiumIdentityError?: Error;
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

/** Resolves the Bearer token (or else the web session cookie) to a user once per request; null when anonymous. */
export async function authenticate(identity: IdentityRepository, req: AuthenticatedRequest): Promise<AuthUser | null> {
  if (req.podiumUser !== undefined) return req.podiumUser;
  if (req.podiumIdentityError !== undefined) throw req.podiumIdentityError;
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) {
    // The web app's session cookie; an expired or unknown one just means anonymous.
    const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
    req.podiumUser = session ? await identity.userBySession(session) : null;
  } else {
    const user = await identity.userByToken(token);
    if (!user) throw new UnauthenticatedError('the API token is unknown or revoked');
    req.podiumUser = user;
  }
  return req.podiumUser;
}

/** `METHOD path` of the Express route that matched (HEAD is served by GET routes). */
export function routeKey(req: Pick<Request, 'method'> & { route?: { path?: unknown } }): string | undefined {
  const path = req.route?.path;
  if (typeof path !== 'string') return undefined;
  return `${req.method === 'HEAD' ? 'GET' : req.method} ${path}`;
}

/**
 * Authenticates every request (rejecting unknown or revoked tokens) and, for REST routes,
 * enforces deny by default: the route must be classified in `REST_CLASSIFICATION` and the caller
 * must meet its rule's static part. GraphQL fields are checked by `authorizationPlugin` before
 * they resolve; resolvers and services check the data-dependent part (`visibility.ts`).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly identity: IdentityRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = requestOf(context);
    const user = await authenticate(this.identity, req);
    if (context.getType<string>() === 'graphql') return true;
    const key = routeKey(req);
    const rule = key === undefined ? undefined : REST_RULES.get(key);
    if (rule === undefined) throw new ForbiddenError(unclassifiedText(`route '${key ?? `${req.method} ${req.path}`}'`));
    const need = staticRequirement(rule);
    if (need === 'none' || meets(need, user)) return true;
    if (!user) throw new UnauthenticatedError(refusalText(`'${key ?? ''}'`, need, user));
    throw new ForbiddenError(refusalText(`'${key ?? ''}'`, need, user));
  }
}

/** The caller (null when anonymous); the AuthGuard has resolved it before the handler runs. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AuthUser | null => {
  return requestOf(context).podiumUser ?? null;
});
