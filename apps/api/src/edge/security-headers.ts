import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { createHash } from 'node:crypto';
import { landingPageHtml } from '../common/landing-page.plugin';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

const API_PATHS = /^\/(api|graphql)(\/|$)/;

/** `'sha256-…'` source expressions for every inline `<script>` and `<style>` of a page. */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))) {
    hashes.push(`'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`);
  }
  return hashes;
}

const common = {
  // Frames: none, anywhere (X-Frame-Options for old browsers, frame-ancestors for new ones).
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'same-origin' as const },
  // The API is called from other local origins in development (Vite); no one embeds it.
  crossOriginResourcePolicy: { policy: 'same-site' as const },
  // HSTS for this host only: includeSubDomains would bind every other service of the domain to https.
  strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
};

/**
 * The web app: its own scripts only (Vite emits module files, no inline script), styles from
 * this origin plus inline `style` (Observable Plot writes a <style> into each chart's SVG),
 * data: images (the icon), fetches to this origin only, never framed.
 */
export const WEB_APP_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * Security headers on every answer (helmet): nosniff, Referrer-Policy, X-Frame-Options DENY and a
 * Content-Security-Policy with frame-ancestors 'none' — strict `default-src 'none'` for API answers
 * (JSON, CSV), the web app's policy for pages, and for the GraphQL console page (GET /graphql, one
 * inline script and style) their hashes.
 */
export function securityHeaders(): Middleware {
  const html = landingPageHtml();
  const web = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: WEB_APP_CSP } });
  const api = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } });
  const consolePage = helmet({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: inlineHashes(html, 'script'),
        styleSrc: inlineHashes(html, 'style'),
        connectSrc: ["'self'"],
        formAction: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  return (req, res, next) => {
    if (req.path === '/graphql' && req.method === 'GET') consolePage(req, res, next);
    else if (API_PATHS.test(req.path)) api(req, res, next);
    else web(req, res, next);
  };
}
