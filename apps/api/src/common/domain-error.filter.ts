import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { DomainError } from '@podium/domain';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { requestIdOf } from './request-context';

const HTTP_STATUS: Record<DomainError['code'], number> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
};

const HTTP_CODE: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** What a client learns about an error: the same for GraphQL (`extensions`) and REST (body). */
export interface ClientError {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1017', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', '57P01', '57P03']);

/**
 * The database cannot be reached right now (restarting, network partition, timed out): worth a
 * retry, not a bug. Deadlines are the pool's (ADR 0019): "timeout exceeded when trying to
 * connect" for a new connection, "Query read timeout" for a query without an answer.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down)|Can't reach database server|Server has closed the connection|timeout exceeded when trying to connect|Query read timeout|database did not answer within/i.test(
    error.message,
  );
}

/**
 * Maps an error to what a client may see. Domain errors keep their message and pointer;
 * Nest's HTTP exceptions (404 route, 413 upload) keep their status; anything else is hidden.
 */
export function toClientError(error: unknown): ClientError | null {
  if (error instanceof DomainError) {
    return { status: HTTP_STATUS[error.code], code: error.code, message: error.message, details: error.details };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, code: HTTP_CODE[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST'), message: error.message, details: {} };
  }
  if (isDatabaseUnavailable(error)) {
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the database is unavailable right now; retry in a few seconds', details: {} };
  }
  // Express middleware (body-parser) raises http-errors: client errors marked safe to expose.
  if (error instanceof Error && (error as { expose?: unknown }).expose === true) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { status, code: HTTP_CODE[status] ?? 'BAD_REQUEST', message: error.message, details: {} };
    }
  }
  return null;
}

/** The one exception filter: domain errors → GraphQL `extensions.code` or HTTP status. */
@Catch()
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): GraphQLError | undefined {
    const client = toClientError(error);
    const isGraphql = host.getType<string>() === 'graphql';
    // Optional calls: hosts built by hand (tests, other contexts) may lack them.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- hosts built by hand lack these methods
    const req = isGraphql ? host.getArgByIndex?.<{ req?: unknown } | undefined>(2)?.req : host.switchToHttp().getRequest?.<unknown>();
    const requestId = requestIdOf(req);
    if (!client) {
      this.logger.error({ msg: error instanceof Error ? error.message : String(error), requestId, stack: error instanceof Error ? error.stack : undefined });
    }
    const shown: ClientError = client ?? {
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
      message: `internal server error${requestId ? ` (request ${requestId})` : ''}`,
      details: requestId ? { requestId } : {},
    };
    const retryAfter = shown.details['retryAfterSeconds'];
    if (isGraphql) {
      // Apollo takes `extensions.http` as the response's status and headers (and strips it).
      const http = typeof retryAfter === 'number' ? { http: { status: shown.status, headers: new Map([['retry-after', String(retryAfter)]]) } } : {};
      return new GraphQLError(shown.message, { extensions: { code: shown.code, ...shown.details, ...http } });
    }
    const res = host.switchToHttp().getResponse<Response>();
    if (typeof retryAfter === 'number' && !res.headersSent) res.setHeader('Retry-After', String(retryAfter));
    if (res.headersSent) {
      // A streamed download failed half-way: the only honest signal left is a cut connection.
      res.destroy();
      return;
    }
    res.status(shown.status).json({ error: shown.message, code: shown.code, ...shown.details });
  }
}
