import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { sendPrecompressed } from '../common/precompressed';

const API_PATHS = /^\/(api|graphql)(\/|$)/;
/** Vite names built assets `<name>-<content hash>.<ext>`: such a file never changes under its name. */
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.map', '.txt', '.xml', '.webmanifest', '.ico']);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A built file held in memory with its precompressed forms. */
interface WebFile {
  ext: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Every file of the build, read and compressed once at startup (the bundle is small; requests then cost no disk or CPU). */
export function loadWebFiles(distDir: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  for (const full of walk(distDir)) {
    const identity = readFileSync(full);
    const ext = path.extname(full).toLowerCase();
    const compress = COMPRESSIBLE.has(ext) && identity.length > 256;
    files.set('/' + path.relative(distDir, full).split(path.sep).join('/'), {
      ext,
      etag: `"${createHash('sha256').update(identity).digest('base64url')}"`,
      identity,
      gzip: compress ? gzipSync(identity, { level: 9 }) : Buffer.alloc(0),
      brotli: compress ? brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }) : Buffer.alloc(0),
    });
  }
  return files;
}

/**
 * Serves the built web app at / with an SPA fallback (client-side routes get index.html);
 * without a build, / redirects to the GraphQL page. Content-hashed assets are cached for a year
 * (`immutable`); index.html and unhashed files are revalidated (`no-cache`, ETag → 304). Every
 * file is gzip- and brotli-compressed once at startup and sent as the client accepts.
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
  const files = loadWebFiles(distDir);
  const indexFile = files.get('/index.html');
  if (!indexFile) throw new Error(`${index} disappeared while the web app was being loaded`);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PATHS.test(req.path)) { next(); return; }
    let file = files.get(req.path);
    let cacheControl = file && HASHED_ASSET.test(req.path) ? IMMUTABLE : 'no-cache';
    if (!file) {
      // Missing files with an extension are real 404s; anything else is a client-side route.
      if (path.extname(req.path)) { next(); return; }
      file = indexFile;
      cacheControl = 'no-cache';
    }
    res.type(file === indexFile ? '.html' : file.ext || 'application/octet-stream');
    res.setHeader('Cache-Control', cacheControl);
    sendPrecompressed(req, res, file);
  });
}
