import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { serveWebApp } from './web-app';
import { defined } from '../../../../test/support/defined';

@Controller('api')
class PingController {
  @Get('ping')
  ping() {
    return { pong: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

async function appWith(dist: string): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(PingModule, { logger: false });
  serveWebApp(app, dist);
  await app.init();
  return app;
}

describe('serveWebApp', () => {
  it('redirects / to /graphql when the web app is not built', async () => {
    const app = await appWith(path.join(tmpdir(), 'podium-no-such-dist'));
    try {
      const res = await request(app.getHttpServer()).get('/');
      expect(res.status).toBe(302);
      expect(res.headers['location']).toBe('/graphql');
    } finally {
      await app.close();
    }
  });

  it('serves files, falls back to index.html for client routes, and leaves /api alone', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'podium-web-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Podium</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const app = await appWith(dist);
    try {
      const server = app.getHttpServer();
      expect((await request(server).get('/')).text).toContain('<title>Podium</title>');
      expect((await request(server).get('/tasks/wmt-de-en/leaderboard')).text).toContain('<title>Podium</title>');
      const js = await request(server).get('/assets/app.js');
      expect(js.headers['content-type']).toMatch(/javascript/);
      expect((await request(server).get('/assets/missing.js')).status).toBe(404);
      expect((await request(server).get('/api/ping')).body).toEqual({ pong: true });
      expect((await request(server).get('/api/nope')).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('caches content-hashed assets for a year, revalidates index.html, and sends the precompressed forms a client accepts', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'podium-web-'));
    writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Podium</title>${'<p>podium</p>'.repeat(100)}`);
    mkdirSync(path.join(dist, 'assets'));
    const js = `export const x = ${JSON.stringify('leaderboard '.repeat(500))};`;
    writeFileSync(path.join(dist, 'assets', 'index-B3xK9aQz.js'), js);
    const app = await appWith(dist);
    try {
      const server = app.getHttpServer();
      const asset = await request(server).get('/assets/index-B3xK9aQz.js').set('Accept-Encoding', 'br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-encoding']).toBe('br');
      expect(Number(asset.headers['content-length'])).toBeLessThan(js.length / 10);
      expect(asset.text).toBe(js); // superagent decodes brotli
      const gz = await request(server).get('/assets/index-B3xK9aQz.js').set('Accept-Encoding', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.text).toBe(js);
      const plain = await request(server).get('/assets/index-B3xK9aQz.js').set('Accept-Encoding', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.text).toBe(js);

      const page = await request(server).get('/tasks/x').set('Accept-Encoding', 'gzip');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['content-encoding']).toBe('gzip');
      const again = await request(server).get('/').set('If-None-Match', defined(page.headers['etag'], 'the ETag header'));
      expect(again.status).toBe(304);
    } finally {
      await app.close();
    }
  });
});
