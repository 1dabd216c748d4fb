import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_BASE, type DatasetUpstream } from './registry';

/**
 * Where data set files come from: the public upstream, a mirror served over HTTP(S), or a
 * local directory. Mirrors are laid out like upstream: `<base>/<repo>/<commit>/<path>`.
 */
export type DataSource = { kind: 'upstream'; base: string } | { kind: 'url'; base: string } | { kind: 'directory'; dir: string };

/**
 * The user cache folder: `$PODIUM_CACHE`, else `$XDG_CACHE_HOME/podium`, else
 * `~/.cache/podium`. Data sets live in its `datasets/` folder.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['PODIUM_CACHE']?.trim();
  if (explicit) return resolve(explicit);
  const xdg = env['XDG_CACHE_HOME']?.trim();
  if (xdg && isAbsolute(xdg)) return join(xdg, 'podium');
  return join(homedir(), '.cache', 'podium');
}

/**
 * Parses a `PODIUM_DATA_MIRROR` value: an `http(s)://` URL, a `file://` URL or a directory
 * path (relative to the working directory); empty or unset means the public upstream.
 */
export function parseDataMirror(value: string | undefined): DataSource {
  const v = value?.trim();
  if (!v) return { kind: 'upstream', base: UPSTREAM_BASE };
  if (/^https?:\/\//i.test(v)) return { kind: 'url', base: v.endsWith('/') ? v : `${v}/` };
  if (/^file:\/\//i.test(v)) return { kind: 'directory', dir: fileURLToPath(v) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) throw new Error(`PODIUM_DATA_MIRROR must be an http(s) URL or a directory, got '${v}'`);
  return { kind: 'directory', dir: resolve(v) };
}

/** The data source `PODIUM_DATA_MIRROR` names, else the public upstream. */
export function dataSourceFromEnv(env: NodeJS.ProcessEnv = process.env): DataSource {
  return parseDataMirror(env['PODIUM_DATA_MIRROR']);
}

/** Upstream-relative location of a file: `<repo>/<commit>/<path>`. */
export function upstreamKey(upstream: DatasetUpstream, path: string): string {
  return `${upstream.repo}/${upstream.commit}/${path}`;
}

/**
 * Where a file is read from: a URL (upstream or HTTP mirror) or a path in a mirror folder.
 * Path segments are URL-encoded for HTTP.
 */
export function sourceLocation(source: DataSource, upstream: DatasetUpstream, path: string): string {
  const key = upstreamKey(upstream, path);
  if (source.kind === 'directory') return join(source.dir, ...key.split('/'));
  return source.base + key.split('/').map(encodeURIComponent).join('/');
}

/** Human-readable name of a source for messages: the URL base or the folder. */
export function describeSource(source: DataSource): string {
  return source.kind === 'directory' ? `mirror folder ${source.dir}` : source.kind === 'url' ? `mirror ${source.base}` : source.base;
}

/** The cache folder's data set root: `<cacheDir>/datasets`. */
export function datasetsCacheDir(cacheDir: string): string {
  return join(cacheDir, 'datasets');
}

/** Where a verified file lives in the cache: `<cacheDir>/datasets/<repo>/<commit>/<path>` (the upstream layout). */
export function cachedFilePath(cacheDir: string, upstream: DatasetUpstream, path: string): string {
  return join(datasetsCacheDir(cacheDir), ...upstreamKey(upstream, path).split('/'));
}
