import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchModel, listModels } from './model-fetch';
import { sha256File } from './manifest';
import { copyTestModel, TEST_MODEL_DIR } from './testing/test-model';

const FILES = ['model.onnx', 'tokenizer.json', 'config.json'];
const COMMIT = 'c0ffee0000000000000000000000000000000001';

interface HubLog {
  url: string;
  range?: string;
}

/** A stand-in for the model hub on 127.0.0.1 serving the committed test model, with Range support. */
async function startHub(opts: { interrupt?: Set<string>; corrupt?: string; redirect?: boolean } = {}) {
  const bodies = new Map(FILES.map((f) => [f, readFileSync(join(TEST_MODEL_DIR, f))]));
  const requests: HubLog[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', range: req.headers.range });
    if (opts.redirect && !req.url?.startsWith('/cdn/')) {
      // as the real hub: the commit on a redirect to the CDN, which does not repeat it
      res.writeHead(302, { location: `/cdn${req.url}`, 'x-repo-commit': COMMIT }).end();
      return;
    }
    if (req.url?.startsWith('/cdn/')) req.url = req.url.slice(4);
    const m = /^\/podium\/test-nli-tiny\/resolve\/([^/]+)\/(.+)$/.exec(req.url ?? '');
    const file = m?.[2];
    let body = file ? bodies.get(file) : undefined;
    if (!body || !file) {
      res.writeHead(404).end('not found');
      return;
    }
    if (opts.corrupt === file) body = Buffer.concat([body, Buffer.from(' ')]);
    if (!opts.redirect) res.setHeader('x-repo-commit', COMMIT);
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= body.length) {
        res.writeHead(416).end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
      res.end(body.subarray(start));
      return;
    }
    if (opts.interrupt?.has(file)) {
      opts.interrupt.delete(file);
      res.writeHead(200, { 'content-length': body.length });
      // Half the bytes, a pause (the client consumes them), then the connection drops.
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => res.destroy(), 150));
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { endpoint, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A temp models/ folder with the repository's manifest and no model in it. */
function emptyModelsDir() {
  const { modelsDir, modelDir, manifestPath } = copyTestModel();
  rmSync(modelDir, { recursive: true });
  return { modelsDir, modelDir, manifestPath };
}

describe('fetchModel against a local hub', () => {
  it('downloads the test model, verifies the manifest checksums and swaps it into place', async () => {
    const hub = await startHub();
    try {
      const { modelsDir, modelDir } = emptyModelsDir();
      const r = await fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint });
      expect(r.dir).toBe(modelDir);
      for (const f of FILES) expect(await sha256File(join(modelDir, f))).toBe(await sha256File(join(TEST_MODEL_DIR, f)));
      expect(hub.requests.map((q) => q.url)).toEqual(FILES.map((f) => `/podium/test-nli-tiny/resolve/main/${f}`));
      expect(readdirSync(modelsDir).sort()).toEqual(['manifest.json', 'test-nli-tiny']); // no staging left
    } finally {
      await hub.close();
    }
  });

  it('resumes an interrupted download with an HTTP Range request from the bytes it has', async () => {
    const hub = await startHub({ interrupt: new Set(['model.onnx']) });
    try {
      const { modelsDir, modelDir } = emptyModelsDir();
      const lines: string[] = [];
      await fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint, log: (m) => lines.push(m) });
      const onnx = hub.requests.filter((q) => q.url.endsWith('/model.onnx'));
      const size = readFileSync(join(TEST_MODEL_DIR, 'model.onnx')).length;
      expect(onnx).toHaveLength(2);
      expect(onnx[0]?.range).toBeUndefined();
      expect(onnx[1]?.range).toBe(`bytes=${Math.floor(size / 2)}-`);
      expect(lines.join('\n')).toMatch(/resuming .*model.onnx at byte/);
      expect(await sha256File(join(modelDir, 'model.onnx'))).toBe(await sha256File(join(TEST_MODEL_DIR, 'model.onnx')));
    } finally {
      await hub.close();
    }
  });

  it('resumes a partial file left by an earlier, killed fetch', async () => {
    const hub = await startHub();
    try {
      const { modelsDir } = emptyModelsDir();
      const staging = join(modelsDir, '.test-nli-tiny.download');
      mkdirSync(staging);
      writeFileSync(join(staging, 'tokenizer.json.part'), readFileSync(join(TEST_MODEL_DIR, 'tokenizer.json')).subarray(0, 1000));
      await fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint });
      expect(hub.requests.find((q) => q.url.endsWith('/tokenizer.json'))?.range).toBe('bytes=1000-');
      expect(await sha256File(join(modelsDir, 'test-nli-tiny', 'tokenizer.json'))).toBe(
        await sha256File(join(TEST_MODEL_DIR, 'tokenizer.json')),
      );
    } finally {
      await hub.close();
    }
  });

  it('refuses a file whose sha256 does not match, discarding it and leaving the old model in place', async () => {
    const hub = await startHub({ corrupt: 'tokenizer.json' });
    try {
      const { modelsDir, modelDir } = copyTestModel();
      await expect(fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint })).rejects.toThrow(
        /test-nli-tiny\/tokenizer.json: sha256 [0-9a-f]{64} does not match the expected 2994ebe4/,
      );
      expect(existsSync(join(modelsDir, '.test-nli-tiny.download', 'tokenizer.json.part'))).toBe(false);
      expect(await sha256File(join(modelDir, 'tokenizer.json'))).toBe(await sha256File(join(TEST_MODEL_DIR, 'tokenizer.json')));
    } finally {
      await hub.close();
    }
  });

  it('trusts a model without published checksums on first fetch, records it in the lock file, then holds it to that', async () => {
    const hub = await startHub();
    try {
      const { modelsDir, manifestPath } = emptyModelsDir();
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      for (const f of FILES) manifest.models['test-nli-tiny'].files[f].sha256 = null;
      writeFileSync(manifestPath, JSON.stringify(manifest));
      const r = await fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint });
      expect(r.files['model.onnx']?.trustedOnFirstUse).toBe(true);
      const lock = JSON.parse(readFileSync(join(modelsDir, 'manifest.lock.json'), 'utf8'));
      expect(lock.models['test-nli-tiny'].revision).toBe(COMMIT);
      expect(lock.models['test-nli-tiny'].files['config.json'].sha256).toBe(await sha256File(join(TEST_MODEL_DIR, 'config.json')));
      await hub.close();

      // A later fetch asks for the recorded commit and rejects changed bytes.
      const evil = await startHub({ corrupt: 'config.json' });
      try {
        await expect(fetchModel('test-nli-tiny', { modelsDir, endpoint: evil.endpoint })).rejects.toThrow(/config.json: sha256 .* does not match/);
        expect(evil.requests.some((q) => q.url.includes(`/resolve/${COMMIT}/`))).toBe(true);
      } finally {
        await evil.close();
      }
    } finally {
      await hub.close().catch(() => undefined);
    }
  });

  it('follows the hub redirect to its CDN and takes the commit id from the redirect', async () => {
    const hub = await startHub({ redirect: true, interrupt: new Set(['config.json']) });
    try {
      const { modelsDir, manifestPath } = emptyModelsDir();
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      manifest.models['test-nli-tiny'].files['config.json'].sha256 = null;
      writeFileSync(manifestPath, JSON.stringify(manifest));
      await fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint });
      const lock = JSON.parse(readFileSync(join(modelsDir, 'manifest.lock.json'), 'utf8'));
      expect(lock.models['test-nli-tiny'].revision).toBe(COMMIT);
      // the interrupted config.json resumed at the CDN with a Range request
      expect(hub.requests.filter((q) => q.url.startsWith('/cdn/') && q.url.endsWith('config.json')).map((q) => q.range !== undefined)).toEqual([false, true]);
    } finally {
      await hub.close();
    }
  });

  it('reports an HTTP error with the URL after its attempts', async () => {
    const hub = await startHub();
    try {
      const { modelsDir, manifestPath } = emptyModelsDir();
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      manifest.models['test-nli-tiny'].repo = 'nobody/nothing';
      writeFileSync(manifestPath, JSON.stringify(manifest));
      await expect(fetchModel('test-nli-tiny', { modelsDir, endpoint: hub.endpoint, maxAttempts: 2 })).rejects.toThrow(
        /cannot fetch http:\/\/127.0.0.1:\d+\/nobody\/nothing\/resolve\/main\/model.onnx: .*HTTP 404/,
      );
    } finally {
      await hub.close();
    }
  });
});

describe('listModels', () => {
  it('lists every manifest model with presence and verification', async () => {
    const { modelsDir } = copyTestModel();
    const rows = await listModels(modelsDir);
    expect(rows.find((r) => r.name === 'test-nli-tiny')).toMatchObject({ present: true, verified: true, problems: [] });
    expect(rows.find((r) => r.name === 'nli-deberta-v3-xsmall')).toMatchObject({ present: false, verified: null, default: true });
  });
});
