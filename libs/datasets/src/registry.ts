import { z } from 'zod';
import registryJson from './datasets.json';

/** Upstream base of every registry file: `<base><repo>/<commit>/<path>` (GitHub's raw host). */
export const UPSTREAM_BASE = 'https://raw.githubusercontent.com/';

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

const fileSchema = z
  .object({
    /** Path inside the upstream repository at its commit. */
    path: z.string().min(1).refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'a relative path without ..'),
    /** Byte size, or null: not known yet, pinned on the first download (see pins). */
    bytes: z.number().int().positive().nullable(),
    sha256: sha256Schema.nullable(),
  })
  .refine((f) => (f.bytes === null) === (f.sha256 === null), 'bytes and sha256 are both known or both null');

const upstreamSchema = z.object({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  homepage: z.url(),
  licence: z.string().min(1),
  copyright: z.string().min(1),
  /**
   * The licence text's path upstream; every data set lists it among its files. null: the
   * repository has no licence file (then `licence` and `note` say under which terms the data is
   * distributed).
   */
  licenceFile: z.string().min(1).nullable(),
  note: z.string(),
});

const testSetSchema = z.object({
  languagePair: z.string().regex(/^[a-z]{2}-[a-z]{2}$/),
  sourceLang: z.string(),
  targetLang: z.string(),
  source: z.string(),
  reference: z.string(),
  /** System name → output file (one line per segment, aligned with the source). */
  systems: z.record(z.string(), z.string()),
  /**
   * Segment-level DA judgements (`LP DATA SYSTEM SID HUMAN`) filtered by `languagePair`; the
   * test set keeps the judged segments. null: no judgements, every segment is kept.
   */
  human: z
    .object({
      file: z.string(),
      languagePair: z.string(),
      /** DA system name → output file's system name, where WMT renamed a submission. */
      systemAliases: z.record(z.string(), z.string()).optional(),
    })
    .nullable(),
});

const suiteSchema = z.object({
  /** Robustness suite id, `builtin:<name>`. */
  id: z.string().regex(/^builtin:[a-z0-9][a-z0-9-]*$/),
  /** MENLI-format CSV: error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free. */
  file: z.string(),
  language: z.string(),
});

const nliSetSchema = z.object({
  /** The labelled pairs' file. */
  file: z.string(),
  /** `sick`: SICK.txt's tab-separated columns (pair_ID, sentence_A, sentence_B, entailment_label, …, SemEval_set). */
  format: z.literal('sick'),
});

const datasetSchema = z.object({
  description: z.string().min(1),
  upstream: z.string(),
  files: z.array(fileSchema).min(1),
  testSet: testSetSchema.optional(),
  suite: suiteSchema.optional(),
  /** A labelled NLI set (premise, hypothesis, entailment/neutral/contradiction), for `podium models check`. */
  nliSet: nliSetSchema.optional(),
});

const registrySchema = z.object({
  version: z.literal(1),
  /** The data set `npm run up` seeds as the demo task. */
  demo: z.string(),
  upstreams: z.record(z.string(), upstreamSchema),
  datasets: z.record(z.string(), datasetSchema),
});

/** One file of a data set, as the registry lists it. */
export type DatasetFileSpec = z.infer<typeof fileSchema>;
/** Where a data set comes from and under what licence. */
export type DatasetUpstream = z.infer<typeof upstreamSchema>;
/** How a WMT data set becomes a Podium test set. */
export type WmtTestSetSpec = z.infer<typeof testSetSchema>;
/** A built-in robustness suite. */
export type SuiteSpec = z.infer<typeof suiteSchema>;
/** A labelled NLI set. */
export type NliSetSpec = z.infer<typeof nliSetSchema>;
/** The parsed registry (`datasets.json`). */
export type DatasetRegistry = z.infer<typeof registrySchema>;

/** A registry entry with its name and upstream resolved. */
export interface Dataset {
  name: string;
  description: string;
  upstream: DatasetUpstream;
  files: DatasetFileSpec[];
  testSet?: WmtTestSetSpec;
  suite?: SuiteSpec;
  nliSet?: NliSetSpec;
}

/** A name that is neither a data set nor a built-in suite id. */
export class UnknownDatasetError extends Error {
  constructor(readonly requested: string, known: string[]) {
    super(`unknown data set '${requested}'; known: ${known.join(', ')}`);
    this.name = 'UnknownDatasetError';
  }
}

/**
 * Validates a registry: the schema, every upstream named, every file a test set or suite
 * refers to listed among the data set's files, the licence file listed, suite ids unique.
 * @throws Error naming the first problem.
 */
export function parseRegistry(raw: unknown): DatasetRegistry {
  const parsed = registrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid dataset registry at ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const reg = parsed.data;
  const suiteIds = new Set<string>();
  for (const [name, d] of Object.entries(reg.datasets)) {
    const upstream = reg.upstreams[d.upstream];
    if (!upstream) throw new Error(`invalid dataset registry: ${name} names unknown upstream '${d.upstream}'`);
    const paths = new Set(d.files.map((f) => f.path));
    if (paths.size !== d.files.length) throw new Error(`invalid dataset registry: ${name} lists a file twice`);
    const used = upstream.licenceFile === null ? [] : [upstream.licenceFile];
    if (d.testSet) used.push(d.testSet.source, d.testSet.reference, ...Object.values(d.testSet.systems), ...(d.testSet.human ? [d.testSet.human.file] : []));
    if (d.suite) used.push(d.suite.file);
    if (d.nliSet) used.push(d.nliSet.file);
    for (const p of used) if (!paths.has(p)) throw new Error(`invalid dataset registry: ${name} uses ${p}, which is not among its files`);
    if (d.suite) {
      if (suiteIds.has(d.suite.id)) throw new Error(`invalid dataset registry: suite ${d.suite.id} is defined twice`);
      suiteIds.add(d.suite.id);
    }
  }
  if (!reg.datasets[reg.demo]?.testSet) throw new Error(`invalid dataset registry: demo '${reg.demo}' is not a data set with a test set`);
  return reg;
}

/** The registry shipped with Podium (`libs/datasets/src/datasets.json`). */
export const REGISTRY: DatasetRegistry = parseRegistry(registryJson);

/** Name of the data set that `npm run up` seeds as the demo task. */
export const DEMO_DATASET = REGISTRY.demo;

function resolveEntry(reg: DatasetRegistry, name: string): Dataset {
  const d = reg.datasets[name];
  const upstream = d && reg.upstreams[d.upstream];
  if (!d || !upstream) throw new Error(`data set ${name} or its upstream is missing from the registry`); // callers check the name first
  return { name, description: d.description, upstream, files: d.files, testSet: d.testSet, suite: d.suite, nliSet: d.nliSet };
}

/** Every data set of the registry, in registry order. */
export function listDatasets(reg: DatasetRegistry = REGISTRY): Dataset[] {
  return Object.keys(reg.datasets).map((name) => resolveEntry(reg, name));
}

/**
 * A data set by its name (`wmt17-de-en`) or by the id of the suite it holds
 * (`builtin:xpaws-de`).
 * @throws UnknownDatasetError listing the known names.
 */
export function getDataset(nameOrSuiteId: string, reg: DatasetRegistry = REGISTRY): Dataset {
  if (Object.hasOwn(reg.datasets, nameOrSuiteId)) return resolveEntry(reg, nameOrSuiteId);
  const bySuite = Object.entries(reg.datasets).find(([, d]) => d.suite?.id === nameOrSuiteId);
  if (bySuite) return resolveEntry(reg, bySuite[0]);
  throw new UnknownDatasetError(nameOrSuiteId, Object.keys(reg.datasets));
}

/**
 * Built-in robustness suites: suite id (`builtin:wmt20-de`) → the data set holding it. The
 * suite's file is fetched on first use ({@link fetchDataset}).
 */
export const BUILTIN_SUITES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REGISTRY.datasets).flatMap(([name, d]) => (d.suite ? [[d.suite.id, name]] : [])),
);

/** Sum of the known byte sizes; null when a file's size is not known yet. */
export function datasetBytes(d: Dataset): number | null {
  let total = 0;
  for (const f of d.files) {
    if (f.bytes === null) return null;
    total += f.bytes;
  }
  return total;
}

/** One line for a licence notice: `MIT, Copyright (c) 2022 Yanran Chen (github.com/cyr19/MENLI)`. */
export function licenceNote(d: Dataset): string {
  return `${d.upstream.licence}, ${d.upstream.copyright}; via ${d.upstream.homepage} at ${d.upstream.commit.slice(0, 7)}`;
}
