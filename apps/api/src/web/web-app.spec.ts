import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { serveWebApp } from './web-app';

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
});
