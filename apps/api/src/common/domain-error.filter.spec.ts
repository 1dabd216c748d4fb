import { PayloadTooLargeException, type ArgumentsHost } from '@nestjs/common';
import { ConflictError, InvalidInputError, NotFoundError } from '@podium/domain';
import { GraphQLError } from 'graphql';
import { DomainErrorFilter, toClientError } from './domain-error.filter';
import { defined } from '../../../../test/support/defined';

function httpHost(headersSent = false) {
  const res = {
    headersSent,
    statusCode: 0,
    body: undefined as unknown,
    destroyed: false,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
    destroy() {
      this.destroyed = true;
    },
  };
  const host = { getType: () => 'http', switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  return { host, res };
}
const gqlHost = { getType: () => 'graphql' } as unknown as ArgumentsHost;

describe('DomainErrorFilter', () => {
  const filter = new DomainErrorFilter();
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('maps an InvalidInputError to 400 with the message and its line and instance pointer', () => {
    const { host, res } = httpHost();
    filter.catch(new InvalidInputError("line 3: duplicate instance id 's1'", { line: 3, instanceId: 's1' }), host);
    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({ error: "line 3: duplicate instance id 's1'", code: 'INVALID_INPUT', line: 3, instanceId: 's1' });
  });

  it.each([
    [new NotFoundError('phase', 'p1'), 404, 'NOT_FOUND'],
    [new ConflictError('taken'), 409, 'CONFLICT'],
  ])('maps %p to HTTP %d', (error, status, code) => {
    const { host, res } = httpHost();
    filter.catch(error, host);
    expect(res.statusCode).toBe(status);
    expect(res.body).toMatchObject({ code });
  });

  it("keeps the status of Nest's HTTP exceptions (413 from the upload limit)", () => {
    const { host, res } = httpHost();
    filter.catch(new PayloadTooLargeException('File too large'), host);
    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({ error: 'File too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('passes on client errors that express middleware marks as safe to expose (body too large)', () => {
    const { host, res } = httpHost();
    filter.catch(Object.assign(new Error('request entity too large'), { status: 413, expose: true }), host);
    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({ error: 'request entity too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('hides unknown errors as a 500 without their message', () => {
    const { host, res } = httpHost();
    filter.catch(new Error('password=hunter2 in connection string'), host);
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error', code: 'INTERNAL_SERVER_ERROR' });
  });

  it('cuts the connection when a streamed response already started', () => {
    const { host, res } = httpHost(true);
    filter.catch(new Error('db went away'), host);
    expect(res.destroyed).toBe(true);
    expect(res.statusCode).toBe(0);
  });

  it('turns a domain error into a GraphQL error with extensions.code and the pointer', () => {
    const out = filter.catch(new InvalidInputError('slug: bad', { field: 'slug' }), gqlHost);
    expect(out).toBeInstanceOf(GraphQLError);
    expect(defined(out).message).toBe('slug: bad');
    expect(defined(out).extensions).toEqual({ code: 'INVALID_INPUT', field: 'slug' });
  });

  it('hides unknown errors from GraphQL clients as INTERNAL_SERVER_ERROR', () => {
    const out = filter.catch(new TypeError('cannot read x of undefined'), gqlHost);
    expect(defined(out).message).toBe('internal server error');
    expect(defined(out).extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
  });

  it('knows nothing to show for an unknown error', () => {
    expect(toClientError(new Error('x'))).toBeNull();
  });
});

describe('DomainErrorFilter request ids', () => {
  it('gives the request id with a hidden 500 so a user can quote it', () => {
    const res = { statusCode: 0, body: undefined as unknown, headersSent: false, status(c: number) { this.statusCode = c; return this; }, json(b: unknown) { this.body = b; return this; } };
    const host = { getType: () => 'http', switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ requestId: 'req-1' }) }) } as unknown as ArgumentsHost;
    new DomainErrorFilter().catch(new Error('secret'), host);
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error (request req-1)', code: 'INTERNAL_SERVER_ERROR', requestId: 'req-1' });
  });
});

describe('database outages', () => {
  it('answers 503 SERVICE_UNAVAILABLE (retry) rather than a hidden 500 while the database restarts', () => {
    expect(toClientError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(toClientError(Object.assign(new Error('x'), { code: '57P01' }))).toMatchObject({ status: 503 });
    expect(toClientError(new Error('duplicate key'))).toBeNull();
  });

  it('answers 503 when a partition silences the database (errors seen in bench:faults --partitions)', () => {
    // Prisma wraps the driver's error; these are the driver's texts during a cut link.
    const wrapped = (driver: string) => new Error(`\nInvalid \`this.db.task.findMany()\` invocation in\ntask.repository.ts:114:25\n\n${driver}`);
    expect(toClientError(wrapped('connect EHOSTUNREACH 10.203.5.10:5432'))).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(toClientError(wrapped('timeout exceeded when trying to connect'))).toMatchObject({ status: 503 });
    expect(toClientError(wrapped('Query read timeout'))).toMatchObject({ status: 503 });
    expect(toClientError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toMatchObject({ status: 503 });
    expect(toClientError(new Error('the database did not answer within 2000 ms'))).toMatchObject({ status: 503 });
  });
});
