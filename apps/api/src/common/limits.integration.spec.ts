// Request limits through the whole API (a real PostgreSQL, as npm test starts): 429 with
// Retry-After per client, 413 past the body limit, 400 QUERY_TOO_COMPLEX for deep queries.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { IdentityRepository, Role } from '@podium/db';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../app';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const DATABASE_URL = process.env['DATABASE_URL'];
const suite = DATABASE_URL ? describe : describe.skip;

suite('request limits', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const config = loadApiConfig({
      DATABASE_URL, PODIUM_MAX_UPLOAD_BYTES: '2048', PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '5', PODIUM_RATE_WINDOW_SECONDS: '60', PODIUM_GRAPHQL_MAX_DEPTH: '4',
    });
    app = await createApp(config, { logger: false, queueSchema: 'pgboss_limits_it' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  /** A new participant's API token. */
  async function participantToken(): Promise<string> {
    const identity = app.get(IdentityRepository);
    const user = await identity.createUser(`limits-${randomUUID().slice(0, 8)}`, Role.PARTICIPANT);
    return identity.issueToken(user.id, 'limits');
  }

  it('answers the sixth request of a user in a window with 429, Retry-After and the limit, whatever the spelling of the header', async () => {
    const a = await participantToken();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(app.getHttpServer()).post('/graphql').set('Authorization', `Bearer ${a}`).send({ query: '{ tasks { slug } }' })).status);
    expect(statuses.every((s) => s !== 429)).toBe(true);
    // The guard reads `bearer`, `BEARER` and extra spaces as the same token: so does the limiter.
    const limited = await request(app.getHttpServer()).post('/graphql').set('Authorization', `BEARER   ${a}  `).send({ query: '{ tasks { slug } }' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
    expect(limited.body.errors[0].message).toMatch(/at most 5 requests per 60 s per user/);
    // Another user has a window of their own.
    expect((await request(app.getHttpServer()).get('/api/health').set('Authorization', `Bearer ${await participantToken()}`)).status).not.toBe(429);
  });

  it('refuses a body past the limit with 413 and a deep query with 400 QUERY_TOO_COMPLEX', async () => {
    const c = await participantToken();
    const big = await request(app.getHttpServer()).post('/graphql').set('Authorization', `Bearer ${c}`).send({ query: '{ tasks { slug } }', variables: { x: 'a'.repeat(4096) } });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const deep = await request(app.getHttpServer()).post('/graphql').set('Authorization', `Bearer ${c}`).send({ query: '{ tasks { phases { task { phases { id } } } } }' });
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({ message: 'the query nests 5 levels deep; at most 4 are allowed', extensions: { code: 'QUERY_TOO_COMPLEX' } });
  });
});
