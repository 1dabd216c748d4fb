import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { sha256File } from '@podium/datasets';

/** sha256 (hex) of a file, streamed so multi-gigabyte models do not fill memory (the one in @podium/datasets). */
export { sha256File };

/** Files every model directory holds. */
export const MODEL_FILES = ['model.onnx', 'tokenizer.json', 'config.json'] as const;

const fileSchema = z.object({
  remote: z.string().min(1),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});

const entrySchema = z.object({
  source: z.enum(['huggingface', 'generated']),
  repo: z.string().optional(),
  revision: z.string().optional(),
  generator: z.string().optional(),
  licence: z.string(),
  /** What the model is: an NLI cross-encoder (default) or a text encoder for embedding metrics. */
  kind: z.enum(['nli', 'encoder']).default('nli'),
  /** id2label in id order; required of NLI models, absent for encoders. */
  labels: z.array(z.string()).min(3).optional(),
  use: z.string().optional(),
  note: z.string().optional(),
  files: z.record(z.string(), fileSchema),
}).refine((e) => e.kind === 'encoder' || e.labels !== undefined, 'an NLI model lists its labels');

const manifestSchema = z.object({
  version: z.literal(1),
  defaultModel: z.string(),
  models: z.record(z.string(), entrySchema),
});

const lockSchema = z.object({
  version: z.literal(1),
  models: z.record(
    z.string(),
    z.object({
      repo: z.string().optional(),
      revision: z.string(),
      fetchedAt: z.string(),
      files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number() })),
    }),
  ),
});

/** One model of `models/manifest.json`. */
export type ModelManifestEntry = z.infer<typeof entrySchema>;
/** The parsed `models/manifest.json`. */
export type ModelManifest = z.infer<typeof manifestSchema>;
/** The parsed `models/manifest.lock.json` (checksums trusted on first fetch). */
export type ModelLock = z.infer<typeof lockSchema>;

/** Where the lock file lives for a given manifest: next to it. */
export function lockPathFor(manifestPath: string): string {
  return join(dirname(manifestPath), 'manifest.lock.json');
}

/**
 * The manifest a model directory is checked against by default: `manifest.json` in the
 * directory's parent (models live in `models/NAME/` next to `models/manifest.json`).
 */
export function defaultManifestPath(modelDir: string): string {
  return join(dirname(resolve(modelDir)), 'manifest.json');
}

/** Reads and validates a manifest; throws with the file name on any problem. */
export function readManifest(path: string): ModelManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read model manifest ${path}: ${(err as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid model manifest ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Reads the lock file next to a manifest; a missing lock file is an empty one. */
export function readLock(manifestPath: string): ModelLock {
  const path = lockPathFor(manifestPath);
  if (!existsSync(path)) return { version: 1, models: {} };
  const parsed = lockSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`invalid lock file ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/**
 * Expected sha256 of each file of model `name`: the manifest's value, else the lock file's
 * (trust on first fetch), else null (never fetched: cannot be verified).
 */
export function expectedChecksums(
  name: string,
  manifest: ModelManifest,
  lock: ModelLock,
): Record<string, string | null> {
  const entry = manifest.models[name];
  if (!entry) throw new Error(`model '${name}' is not in the manifest`);
  const locked = lock.models[name]?.files ?? {};
  const out: Record<string, string | null> = {};
  for (const [file, spec] of Object.entries(entry.files)) out[file] = spec.sha256 ?? locked[file]?.sha256 ?? null;
  return out;
}

/** Result of checking a model directory's files against the manifest. */
export interface ModelVerification {
  name: string;
  ok: boolean;
  /** sha256 of each file as found on disk. */
  sha256: Record<string, string>;
  problems: string[];
}

/**
 * Hashes every manifest file of the model in `modelDir` (named after the directory) and
 * compares with the manifest or lock file. A file without any recorded checksum is a problem:
 * an unverifiable model is never used.
 */
export async function verifyModelDir(modelDir: string, manifestPath = defaultManifestPath(modelDir)): Promise<ModelVerification> {
  const name = basename(resolve(modelDir));
  const manifest = readManifest(manifestPath);
  const expected = expectedChecksums(name, manifest, readLock(manifestPath));
  const sha256: Record<string, string> = {};
  const problems: string[] = [];
  for (const [file, want] of Object.entries(expected)) {
    const path = join(modelDir, file);
    if (!existsSync(path)) {
      problems.push(`${file} is missing`);
      continue;
    }
    sha256[file] = await sha256File(path);
    if (want === null) problems.push(`${file} has no recorded checksum (fetch it with 'models fetch ${name}')`);
    else if (want !== sha256[file]) problems.push(`${file} sha256 ${sha256[file]} does not match the recorded ${want}`);
  }
  return { name, ok: problems.length === 0, sha256, problems };
}
