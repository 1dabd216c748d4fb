/**
 * The network edge probed as an attacker would (issue #21), against a real api process and
 * PostgreSQL: every probe of the issue and variants (see support/edge-probe-suite.ts), at the
 * issue's sizes, printed as a table with the api's peak RSS (/proc/<pid>/status), and 0 findings.
 * Before this change: 8 anonymous 45 MB uploads raised the api's RSS from 310 to 689 MB before
 * their 401s, a 500 MB body was read whole (18 s) before its 413, a page on another origin of
 * the same site submitted with the user's cookie, 252 aliases were accepted, no CSP was sent.
 */
import { createDb, type Db } from '@podium/db';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defined } from '../support/defined';
import { ISSUE_SIZES, formatProbeTable, runEdgeProbes, validUpload, type EdgeProbeTarget } from './support/edge-probe-suite';
import { rawRequest } from './support/edge-probes';
import { createFaultTask } from './support/faults';
import { databaseUrl, startApiProcess, type RunningApp } from './support/processes';

const INSTANCES = 6;
const REQUEST_TIMEOUT_SECONDS = 6;
const HEADERS_TIMEOUT_SECONDS = 3;
const MAX_UPLOAD = 50 * 1024 * 1024;
const ANONYMOUS_BODY = 64 * 1024;

async function sessionCookieFor(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($t: String!) { startSessionWithToken(token: $t) { name } }', variables: { t: token } }),
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = /^(podium_session=[^;]+)/.exec(setCookie)?.[1];
  if (!cookie) throw new Error(`no session cookie: ${res.status} ${await res.text()}`);
  return cookie;
}

describe('the network edge under attack (real api process)', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  let webDir: string;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    webDir = mkdtempSync(path.join(tmpdir(), 'podium-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Podium</title></head><body><div id="root"></div></body></html>');
    ({ api, baseUrl } = await startApiProcess(databaseUrl(), 120_000, {
      PODIUM_QUEUE_SCHEMA: 'pgboss_security_edge',
      PODIUM_WEB_DIST: webDir,
      PODIUM_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
      PODIUM_ANONYMOUS_BODY_BYTES: String(ANONYMOUS_BODY),
      PODIUM_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
      PODIUM_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_SECONDS),
    }));
  }, 150_000);
  afterAll(async () => {
    await api?.stop();
    await db?.$disconnect();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  it('holds against every probe of issue #21 at full size: 0 findings', async () => {
    const task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 100 });
    const target: EdgeProbeTarget = {
      baseUrl,
      pid: defined(api.child.pid),
      phaseId: task.phaseId,
      teamId: task.teamId,
      participantToken: task.participantToken,
      maxUploadBytes: MAX_UPLOAD,
      anonymousBodyBytes: ANONYMOUS_BODY,
      requestTimeoutSeconds: REQUEST_TIMEOUT_SECONDS,
      headersTimeoutSeconds: HEADERS_TIMEOUT_SECONDS,
      validLines: INSTANCES,
    };
    const before = await db.submission.count({ where: { phaseId: task.phaseId } });
    const rows = await runEdgeProbes(target, ISSUE_SIZES, {
      sessionCookie: await sessionCookieFor(baseUrl, task.participantToken),
      // The issue's attacking page: another port of the same host.
      foreignOrigin: `http://127.0.0.1:${Number(new URL(baseUrl).port) + 1}`,
      webPath: '/',
    });
    process.stdout.write(`\nsecurity edge probes (api pid ${target.pid}):\n${formatProbeTable(rows)}\n`);
    expect(rows.filter((r) => r.finding).map((r) => `${r.probe}: ${r.finding}`)).toEqual([]);
    // Only the two allowed uploads (same-origin cookie, Bearer) were stored; no CSRF one.
    const stored = await db.submission.findMany({ where: { phaseId: task.phaseId }, select: { systemName: true } });
    expect(stored.length - before).toBe(2);
    expect(stored.map((s) => s.systemName).sort()).toEqual(['bearer-foreign', 'same-origin']);
  }, 300_000);

  it('leaves no task registration behind when a submission is refused, and registers with the accepted one', async () => {
    const task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 100 });
    const registrations = () => db.taskRegistration.count({ where: { teamId: task.teamId } });
    expect(await registrations()).toBe(0);
    const target = { teamId: task.teamId, validLines: INSTANCES - 1 } as EdgeProbeTarget;
    const post = (body: Buffer) =>
      rawRequest(baseUrl, {
        method: 'POST',
        path: `/api/phases/${task.phaseId}/submissions`,
        headers: { authorization: `Bearer ${task.participantToken}`, 'content-type': 'multipart/form-data; boundary=edgeprobeboundary' },
        bodyBytes: 0,
        declareLength: true,
        body,
      });
    // One line short: refused by the parser after the registration check passed.
    const refused = await post(validUpload(target, 'short'));
    expect(refused.status).toBe(400);
    expect(await registrations()).toBe(0);
    const accepted = await post(validUpload({ ...target, validLines: INSTANCES }, 'whole'));
    expect(accepted.status).toBe(201);
    expect(await db.taskRegistration.findMany({ where: { teamId: task.teamId }, select: { status: true } })).toEqual([{ status: 'APPROVED' }]);
  }, 60_000);
});
