/** Domain errors raised by repositories and services; the API maps them to GraphQL codes. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID_INPUT' | 'FORBIDDEN' | 'UNAUTHENTICATED' | 'RATE_LIMITED',
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class NotFoundError extends DomainError {
  constructor(what: string, id: string) {
    super(`${what} '${id}' not found`, 'NOT_FOUND', { what, id });
  }
}
export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, 'CONFLICT', details);
  }
}
/** Bad input; `line`, `instanceId` and `field` point at the offending place. */
export class InvalidInputError extends DomainError {
  constructor(message: string, pointer: { line?: number; instanceId?: string; field?: string } = {}) {
    super(message, 'INVALID_INPUT', pointer);
  }
}
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(message, 'FORBIDDEN');
  }
}
export class UnauthenticatedError extends DomainError {
  constructor(message = 'a valid API token is required (Authorization: Bearer <token>)') {
    super(message, 'UNAUTHENTICATED');
  }
}
/** Too many attempts (sign-in guessing): HTTP 429 with `Retry-After: retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 'RATE_LIMITED', { retryAfterSeconds });
  }
}
