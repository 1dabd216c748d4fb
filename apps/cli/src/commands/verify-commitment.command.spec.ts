import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledApp } from '../../../../test/support/compiled-app';

// Starts the compiled CLI in child processes: seconds on a loaded 2-core machine.
jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '../../../..');
const SALT = 'ab'.repeat(32);
// The canonical form written out by hand (ADR 0014): keys id, source, references; no spaces; LF after each line.
const CANONICAL = '{"id":"a","source":"Guten Morgen.","references":["Good morning."]}\n{"id":"b","source":"Danke.","references":["Thank you.","Thanks."]}\n';
// sha256(salt bytes || canonical UTF-8), with node:crypto directly (not the code under test).
const COMMITMENT = createHash('sha256').update(Buffer.from(SALT, 'hex')).update(CANONICAL, 'utf8').digest('hex');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [compiledApp('apps/cli/src/main.ts'), 'verify-commitment', ...args], { cwd: ROOT }, (err, stdout, stderr) =>
      res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'podium-verify-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A stand-in for a Podium server: /api/phases/p1/commitment.json and /api/phases/p1/test-set.jsonl. */
async function server(salt: string | null, testSet: string) {
  const s = createServer((req, res) => {
    if (req.url === '/api/phases/p1/commitment.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phaseId: 'p1', commitment: COMMITMENT, salt }));
    if (req.url === '/api/phases/p1/test-set.jsonl') return void res.writeHead(200).end(testSet);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise((r) => s.close(r)) };
}

describe('podium verify-commitment', () => {
  it('offline: matches the published test set (keys in any order) and exits 0', async () => {
    const reordered = '{"source":"Guten Morgen.","references":["Good morning."],"id":"a"}\n{"references":["Thank you.","Thanks."],"id":"b","source":"Danke."}';
    const r = await cli(['--commitment', COMMITMENT, '--salt', SALT, '--test-set', file('set.jsonl', reordered)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ match: true, commitment: COMMITMENT, computed: COMMITMENT, instances: 2 });
  });

  it('offline: detects one changed reference and exits 1', async () => {
    const r = await cli(['--commitment', COMMITMENT, '--salt', SALT, '--test-set', file('set.jsonl', CANONICAL.replace('Thanks.', 'Thanks!'))]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ match: false, commitment: COMMITMENT });
    expect(r.stderr).toMatch(/does not match its commitment/);
  });

  it('online: fetches the commitment, the revealed salt and the published references', async () => {
    const ok = await server(SALT, CANONICAL);
    try {
      const r = await cli(['--url', ok.url, '--phase', 'p1']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ match: true, phaseId: 'p1' });
    } finally {
      await ok.close();
    }
    const tampered = await server(SALT, CANONICAL.replace('Good morning.', 'Good evening.'));
    try {
      expect((await cli(['--url', tampered.url, '--phase', 'p1'])).code).toBe(1);
    } finally {
      await tampered.close();
    }
  });

  it('online: says the phase is not published while its salt is still hidden (exit 2)', async () => {
    const hidden = await server(null, CANONICAL);
    try {
      const r = await cli(['--url', hidden.url, '--phase', 'p1']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not published yet/);
    } finally {
      await hidden.close();
    }
  });

  it('refuses mixed or incomplete flags and a salt that is not 32 bytes of hex', async () => {
    expect((await cli(['--url', 'http://x', '--salt', SALT])).stderr).toMatch(/either --url and --phase/);
    expect((await cli(['--commitment', COMMITMENT, '--salt', SALT])).stderr).toMatch(/all required/);
    const r = await cli(['--commitment', COMMITMENT, '--salt', 'xyz', '--test-set', file('set.jsonl', CANONICAL)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/salt must be 64/);
  });
});
