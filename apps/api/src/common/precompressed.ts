import type { Request, Response } from 'express';

/** The encodings a client accepts, by the usual q-value rules (`br;q=0` refuses brotli). */
export function acceptedEncodings(header: string | string[] | undefined): { br: boolean; gzip: boolean } {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const ok = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return { br: ok('br'), gzip: ok('gzip') || ok('x-gzip') };
}

/** Whether `If-None-Match` names this (strong) ETag, or `*`. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

/**
 * Sends a body that exists in identity, gzip and brotli forms: 304 when the client has this
 * ETag, else the smallest form it accepts, with `Vary: Accept-Encoding`. Headers set by the
 * caller (Content-Type, Cache-Control, Content-Disposition) stay.
 */
export function sendPrecompressed(req: Request, res: Response, forms: { etag: string; identity: Buffer; gzip: Buffer; brotli: Buffer }): void {
  res.setHeader('ETag', forms.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  if (notModified(req, forms.etag)) {
    res.status(304).end();
    return;
  }
  const accepts = acceptedEncodings(req.headers['accept-encoding']);
  let body = forms.identity;
  if (accepts.br && forms.brotli.length > 0) {
    res.setHeader('Content-Encoding', 'br');
    body = forms.brotli;
  } else if (accepts.gzip && forms.gzip.length > 0) {
    res.setHeader('Content-Encoding', 'gzip');
    body = forms.gzip;
  }
  res.status(200);
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}
