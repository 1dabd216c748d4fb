import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadResumable, HttpStatusError } from './download';
import { defined } from '../../../test/support/defined';

async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('downloadResumable', () => {
  it('follows redirects by hand when asked, showing each hop and keeping the token off another host', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const cdn = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-length': 5 }).end('hello');
    });
    // 127.0.0.1 and localhost are different hosts to the client, as a hub and its CDN are.
    const cdnUrl = cdn.url.replace('127.0.0.1', 'localhost');
    const hub = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(302, { location: `${cdnUrl}/file`, 'x-repo-commit': 'abc' }).end();
    });
    try {
      const part = join(mkdtempSync(join(tmpdir(), 'podium-dl-')), 'file.part');
      const statuses: number[] = [];
      await downloadResumable(`${hub.url}/file`, part, {
        headers: { authorization: 'Bearer secret' },
        redirect: 'manual',
        onResponse: (r) => statuses.push(r.status),
      });
      expect(readFileSync(part, 'utf8')).toBe('hello');
      expect(statuses).toEqual([302, 200]);
      expect(defined(seen[0]).authorization).toBe('Bearer secret');
      expect(defined(seen[1]).authorization).toBeUndefined();
    } finally {
      await hub.close();
      await cdn.close();
    }
  });

  it('throws an HttpStatusError for a status other than 200, 206 or 416', async () => {
    const s = await listen((_req, res) => res.writeHead(403).end());
    try {
      const err = await downloadResumable(`${s.url}/x`, join(mkdtempSync(join(tmpdir(), 'podium-dl-')), 'x.part')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpStatusError);
      expect((err as HttpStatusError).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});
