import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeFetchError as describe, downloadResumable } from '@podium/datasets';
import { lockPathFor, type ModelLock, readLock, readManifest, sha256File, verifyModelDir } from './manifest';

/** Default model hub. */
export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

/** Options of {@link fetchModel}. */
export interface FetchModelOptions {
  /** Folder holding `manifest.json` and the model folders (`models/`). */
  modelsDir: string;
  /** Default `<modelsDir>/manifest.json`. */
  manifestPath?: string;
  /** Hub base URL; files come from `<endpoint>/<repo>/resolve/<revision>/<path>`. */
  endpoint?: string;
  /** Bearer token for gated repositories. */
  token?: string;
  /** Attempts per file; an interrupted attempt resumes with an HTTP Range request. Default 3. */
  maxAttempts?: number;
  /** One line per notable event. */
  log?: (message: string) => void;
}

/** What {@link fetchModel} did. */
export interface FetchModelResult {
  name: string;
  dir: string;
  /** Revision fetched: the hub's commit id when it sent one, else the manifest's revision. */
  revision: string;
  files: Record<string, { sha256: string; size: number; trustedOnFirstUse: boolean }>;
}

class ChecksumMismatch extends Error {}

/**
 * GETs `url` into `part` with the shared resumable downloader (HTTP Range from the bytes the
 * part already has), following the hub's redirects by hand: the hub names the commit on its
 * redirect to the CDN, and the token must not travel to another host.
 */
async function download(url: string, part: string, headers: Record<string, string>, log: (m: string) => void): Promise<{ commit?: string }> {
  let commit: string | undefined;
  await downloadResumable(url, part, {
    headers,
    log,
    redirect: 'manual',
    onResponse: (res) => {
      commit = commit ?? res.headers.get('x-repo-commit') ?? undefined;
    },
  });
  return { commit };
}

function writeLock(manifestPath: string, lock: ModelLock): void {
  const path = lockPathFor(manifestPath);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(lock, null, 2) + '\n');
  renameSync(tmp, path);
}

/**
 * Downloads model `name` of the manifest into `<modelsDir>/<name>/`: each file goes to a
 * staging folder as `<file>.part`, resumed with HTTP Range after an interruption (within the
 * same call and across calls), checked against its sha256 (manifest, else lock file; with
 * neither, trusted on first fetch and recorded in `manifest.lock.json` together with the
 * hub's commit id, which later fetches then ask for), and renamed into place; the staging
 * folder replaces the model folder by one rename once every file is verified.
 *
 * @example await fetchModel('nli-deberta-v3-xsmall', { modelsDir: 'models', endpoint: 'https://huggingface.co' })
 */
export async function fetchModel(name: string, options: FetchModelOptions): Promise<FetchModelResult> {
  const modelsDir = resolve(options.modelsDir);
  const manifestPath = options.manifestPath ?? join(modelsDir, 'manifest.json');
  const manifest = readManifest(manifestPath);
  const entry = manifest.models[name];
  if (!entry) throw new Error(`unknown model '${name}'; the manifest has: ${Object.keys(manifest.models).join(', ')}`);
  if (!entry.repo) throw new Error(`model '${name}' has no repository to fetch from`);
  const log = options.log ?? (() => undefined);
  const endpoint = (options.endpoint ?? DEFAULT_HF_ENDPOINT).replace(/\/+$/, '');
  const lock = readLock(manifestPath);
  const locked = lock.models[name];
  const revision = locked?.revision ?? entry.revision ?? 'main';
  const headers: Record<string, string> = { 'user-agent': 'podium-models-fetch/1' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const maxAttempts = options.maxAttempts ?? 3;

  const finalDir = join(modelsDir, name);
  const staging = join(modelsDir, `.${name}.download`);
  mkdirSync(staging, { recursive: true });
  const result: FetchModelResult = { name, dir: finalDir, revision, files: {} };
  let commit: string | undefined;

  for (const [file, spec] of Object.entries(entry.files)) {
    const expected = spec.sha256 ?? locked?.files[file]?.sha256 ?? null;
    const target = join(staging, file);
    const part = `${target}.part`;
    const url = `${endpoint}/${entry.repo}/resolve/${encodeURIComponent(revision)}/${spec.remote}`;
    if (existsSync(target) && expected !== null && (await sha256File(target)) === expected) {
      result.files[file] = { sha256: expected, size: statSync(target).size, trustedOnFirstUse: false };
      continue;
    }
    let lastError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const got = await download(url, part, headers, log);
        commit = commit ?? got.commit;
        const sha256 = await sha256File(part);
        if (expected !== null && sha256 !== expected) {
          rmSync(part, { force: true });
          throw new ChecksumMismatch(`${name}/${file}: sha256 ${sha256} does not match the expected ${expected}; download discarded`);
        }
        renameSync(part, target);
        result.files[file] = { sha256, size: statSync(target).size, trustedOnFirstUse: expected === null };
        lastError = undefined;
        break;
      } catch (err) {
        lastError = err;
        if (err instanceof ChecksumMismatch) throw err;
        log(`${name}/${file}: attempt ${attempt} of ${maxAttempts} failed: ${describe(err)}`);
      }
    }
    if (lastError !== undefined) throw new Error(`cannot fetch ${url}: ${describe(lastError)}`);
  }

  if (Object.values(result.files).some((f) => f.trustedOnFirstUse)) {
    result.revision = locked?.revision ?? commit ?? revision;
    lock.models[name] = {
      repo: entry.repo,
      revision: result.revision,
      fetchedAt: new Date().toISOString(),
      files: Object.fromEntries(Object.entries(result.files).map(([f, v]) => [f, { sha256: v.sha256, size: v.size }])),
    };
    writeLock(manifestPath, lock);
    log(`recorded ${name} (revision ${result.revision}) in ${lockPathFor(manifestPath)}`);
  }

  // Swap the verified staging folder into place.
  const old = join(modelsDir, `.${name}.old-${process.pid}`);
  if (existsSync(finalDir)) renameSync(finalDir, old);
  renameSync(staging, finalDir);
  rmSync(old, { recursive: true, force: true });
  const check = await verifyModelDir(finalDir, manifestPath);
  if (!check.ok) throw new Error(`${name} failed verification after fetch: ${check.problems.join('; ')}`);
  return result;
}

/** One row of {@link listModels}. */
export interface ModelListing {
  name: string;
  default: boolean;
  source: string;
  present: boolean;
  /** null when not present. */
  verified: boolean | null;
  problems: string[];
}

/** Every manifest model with whether it is present in `<modelsDir>/<name>/` and verifies. */
export async function listModels(modelsDir: string, manifestPath = join(modelsDir, 'manifest.json')): Promise<ModelListing[]> {
  const manifest = readManifest(manifestPath);
  const rows: ModelListing[] = [];
  for (const [name, entry] of Object.entries(manifest.models)) {
    const dir = join(resolve(modelsDir), name);
    const present = existsSync(dir);
    const check = present ? await verifyModelDir(dir, manifestPath) : null;
    rows.push({
      name,
      default: manifest.defaultModel === name,
      source: entry.repo ?? entry.source,
      present,
      verified: check ? check.ok : null,
      problems: check?.problems ?? [],
    });
  }
  return rows;
}
