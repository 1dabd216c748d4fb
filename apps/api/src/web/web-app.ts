import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';

const API_PATHS = /^\/(api|graphql)(\/|$)/;

/**
 * Serves the built web app at / with an SPA fallback (client-side routes get index.html);
 * without a build, / redirects to the GraphQL page.
 */
export function serveWebApp(app: NestExpressApplication, distDir: string): void {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) {
    app.use('/', (req: Request, res: Response, next: NextFunction) => {
      if (req.method === 'GET' && req.path === '/') { res.redirect(302, '/graphql'); return; }
      next();
    });
    return;
  }
  const assets = express.static(distDir, { index: false, fallthrough: true });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PATHS.test(req.path)) { next(); return; }
    assets(req, res, () => {
      // Missing files with an extension are real 404s; anything else is a client-side route.
      if (path.extname(req.path)) { next(); return; }
      res.sendFile(index);
    });
  });
}
