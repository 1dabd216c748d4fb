/**
 * Network-edge benchmark: `npm run bench:security` (issue #21). A real api process on an
 * embedded PostgreSQL of its own, probed over loopback as the issue's attacker did, at full size:
 * 8 parallel anonymous 45 MB uploads (declared and chunked, REST and GraphQL), 500 MB with a
 * token (declared and chunked), CSRF from another origin of the same site, 252 aliases,
 * security headers, a third concurrent upload, a slow-loris body and slow headers. Prints one row
 * per probe: the answer, its time, and the api's idle and peak RSS (/proc/<pid>/status).
 * Targets: 0 findings; anonymous uploads leave peak RSS within 50 MB of idle.
 * Options (env): BENCH_REQUEST_TIMEOUT (10 s; the api's default is 120 s), BENCH_HEADERS_TIMEOUT (5 s).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createDb } from '@podium/db';
import { ISSUE_SIZES, formatProbeTable, runEdgeProbes } from '../test/e2e/support/edge-probe-suite';
import { createFaultTask } from '../test/e2e/support/faults';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort, repoRoot, startApiProcess } from '../test/e2e/support/processes';

const REQUEST_TIMEOUT = Number(process.env['BENCH_REQUEST_TIMEOUT'] ?? 10);
const HEADERS_TIMEOUT = Number(process.env['BENCH_HEADERS_TIMEOUT'] ?? 5);
const MAX_UPLOAD = 50 * 1024 * 1024;
const ANONYMOUS_BODY = 64 * 1024;
const INSTANCES = 20;

const say = (m: string) => process.stderr.write(`[bench:security] ${m}\n`);

async function main(): Promise<void> {
  say(`${cpus().length} cores, load ${(loadavg()[0] ?? 0).toFixed(1)}`);
  const pg = await startOwnPostgres(`bench-security-${process.pid}`, await freePort(), false);
  const webDir = mkdtempSync(path.join(tmpdir(), 'podium-bench-web-'));
  const cleanup: (() => Promise<void>)[] = [() => pg.stop(), async () => rmSync(webDir, { recursive: true, force: true })];
  try {
    execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
    const db = createDb(pg.url, { maxConnections: 2 });
    cleanup.unshift(() => db.$disconnect());
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Podium</title></head><body><div id="root"></div></body></html>');
    const { api, baseUrl } = await startApiProcess(pg.url, 120_000, {
      PODIUM_WEB_DIST: webDir,
      PODIUM_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
      PODIUM_ANONYMOUS_BODY_BYTES: String(ANONYMOUS_BODY),
      PODIUM_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT),
      PODIUM_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT),
    });
    cleanup.unshift(() => api.stop());
    const task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 1000 });
    const cookieRes = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($t: String!) { startSessionWithToken(token: $t) { name } }', variables: { t: task.participantToken } }),
    });
    const sessionCookie = /^(podium_session=[^;]+)/.exec(cookieRes.headers.get('set-cookie') ?? '')?.[1];
    if (!sessionCookie) throw new Error('no session cookie from startSessionWithToken');
    const pid = api.child.pid;
    if (pid === undefined) throw new Error('the api process has no pid');
    const rows = await runEdgeProbes(
      {
        baseUrl, pid, phaseId: task.phaseId, teamId: task.teamId, participantToken: task.participantToken,
        maxUploadBytes: MAX_UPLOAD, anonymousBodyBytes: ANONYMOUS_BODY, requestTimeoutSeconds: REQUEST_TIMEOUT, headersTimeoutSeconds: HEADERS_TIMEOUT, validLines: INSTANCES,
      },
      ISSUE_SIZES,
      { sessionCookie, foreignOrigin: `http://127.0.0.1:${Number(new URL(baseUrl).port) + 1}`, webPath: '/' },
    );
    const findings = rows.filter((r) => r.finding);
    process.stdout.write(`bench:security — real api process (pid ${pid}), embedded PostgreSQL, loopback; upload limit 50 MiB, anonymous JSON ${ANONYMOUS_BODY / 1024} KiB\n`);
    process.stdout.write(`${formatProbeTable(rows)}\n`);
    process.stdout.write(findings.length === 0 ? 'all targets met (0 findings)\n' : `TARGETS MISSED: ${findings.length} findings\n`);
    process.exitCode = findings.length === 0 ? 0 : 1;
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
