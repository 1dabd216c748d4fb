import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledApp } from '../../../../test/support/compiled-app';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const ROOT = resolve(__dirname, '../../../..');
const MODEL = join(ROOT, 'models/test-nli-tiny');

/** Runs the real, compiled CLI in a child process (as `npm run -s podium -- …` does). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [compiledApp('apps/cli/src/main.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) => res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A local stand-in for the hub serving the committed test model (tokenizer.json optionally altered). */
async function hub(corrupt = false) {
  const server = createServer((req, res) => {
    const file = /\/resolve\/[^/]+\/(.+)$/.exec(req.url ?? '')?.[1];
    if (!file || !['model.onnx', 'tokenizer.json', 'config.json'].includes(file)) return void res.writeHead(404).end();
    let body = readFileSync(join(MODEL, file));
    if (corrupt && file === 'tokenizer.json') body = Buffer.concat([body, Buffer.from('\n')]);
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

function emptyModelsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'podium-cli-models-'));
  cpSync(join(ROOT, 'models/manifest.json'), join(dir, 'manifest.json'));
  return dir;
}

describe('podium models', () => {
  it('fetches the test model from the endpoint in PODIUM_HF_ENDPOINT and then lists it as present and verified', async () => {
    const h = await hub();
    try {
      const dir = emptyModelsDir();
      const fetched = await cli(['models', 'fetch', 'test-nli-tiny', '--models-dir', dir], { PODIUM_HF_ENDPOINT: h.url });
      expect(fetched.code).toBe(0);
      const out = JSON.parse(fetched.stdout);
      expect(out.files['model.onnx'].sha256).toBe('3e4907effc5a5d724e97ee3d2eab55a2dd55ee4372c9054af73f18fc18dd703c');
      const listed = await cli(['models', 'list', '--models-dir', dir]);
      const rows = JSON.parse(listed.stdout).models;
      expect(rows.find((r: { name: string }) => r.name === 'test-nli-tiny')).toMatchObject({ present: true, verified: true });
      expect(rows.find((r: { name: string }) => r.name === 'nli-deberta-v3-xsmall')).toMatchObject({ present: false });
    } finally {
      await h.close();
    }
  }, 60_000);

  it('exits 2 with one line naming the file when a checksum does not match', async () => {
    const h = await hub(true);
    try {
      const r = await cli(['models', 'fetch', 'test-nli-tiny', '--models-dir', emptyModelsDir(), '--endpoint', h.url]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n').pop()).toMatch(/^podium models: fetch test-nli-tiny from .* failed: test-nli-tiny\/tokenizer.json: sha256 .* does not match/);
    } finally {
      await h.close();
    }
  }, 60_000);

  it('exits 2 for a model the manifest does not know', async () => {
    const r = await cli(['models', 'fetch', 'no-such-model', '--models-dir', emptyModelsDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown model 'no-such-model'");
  }, 60_000);
});
