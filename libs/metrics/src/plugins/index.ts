/**
 * The metric plugins, one folder each (ADR 0033, 0036): every subfolder with an `index.ts` exports
 * `METRIC_FOLDER` (its plugins and its place in the display order) and adds itself to the
 * {@link MetricFolders} type, so the registry (`../registry.ts`) and `MetricName` follow the
 * folders. Adding a metric is adding its folder: `folders.generated.ts` imports every folder
 * (written by scripts/generate-plugin-index.mjs, `npm run generate`, which npm install, test,
 * build, typecheck, lint and Jest run first). Static imports, not a folder listing at run time:
 * the library stays pure (no Node built-in) and bundles as it is. Order is display order:
 * classical metrics, then model, embedding and derived ones (the folders' `order`).
 */
import type { EmbeddingMetricPlugin } from '../embedding';
import type { ComputedMetricPlugin, MetricFolder, MetricFolders } from '../plugin';
// Git-ignored, written from this folder by scripts/generate-plugin-index.mjs (`npm run generate`).
import { GENERATED_FOLDERS } from './folders.generated';

/** A plugin folder's module: its exports by name. */
export type PluginModule = Readonly<Record<string, unknown>>;

/** Every plugin folder's module, by folder name (any order: the folders' `order` sorts them). */
export const FOLDERS: Readonly<Record<string, PluginModule>> = GENERATED_FOLDERS;

/** A plugin of a registered folder, with its literal name. */
export type RegisteredMetricPlugin = MetricFolders[keyof MetricFolders]['plugins'][number];

function isMetricFolder(value: unknown): value is MetricFolder {
  return typeof value === 'object' && value !== null && typeof (value as MetricFolder).order === 'number' && Array.isArray((value as MetricFolder).plugins);
}

/**
 * The plugins of these folder modules, folder by folder in `order` (then as the folder lists
 * them). Throws when a module exports no `METRIC_FOLDER`.
 * Example: `metricPluginsOf([{ METRIC_FOLDER: { order: 1, plugins: [BLEU_PLUGIN] } }])` → `[BLEU_PLUGIN]`.
 */
export function metricPluginsOf(modules: readonly PluginModule[], names: readonly string[] = []): MetricFolder['plugins'][number][] {
  const folders = modules.map((m, i) => {
    const folder = m['METRIC_FOLDER'];
    if (!isMetricFolder(folder)) throw new Error(`metric plugin folder ${names[i] ?? `#${i}`} exports no METRIC_FOLDER ({ order, plugins })`);
    return folder;
  });
  return [...folders].sort((a, b) => a.order - b.order).flatMap((f) => f.plugins);
}

/** Every plugin: the computed ones, then those a host completes (model, embedding) or derives (combined). */
export const METRIC_PLUGINS = metricPluginsOf(Object.values(FOLDERS), Object.keys(FOLDERS)) as readonly RegisteredMetricPlugin[];

type Computed = Extract<RegisteredMetricPlugin, ComputedMetricPlugin>;
type Embedding = Extract<RegisteredMetricPlugin, EmbeddingMetricPlugin>;

/** The plugins this library scores from the texts (`statistics` and `instance`). */
export const COMPUTED_METRIC_PLUGINS = METRIC_PLUGINS.filter((p): p is Computed => p.capability === 'statistics' || p.capability === 'instance');

/**
 * The plugins scored from a text encoder's vectors (`embedding`, contract in `../embedding.ts`):
 * the host runs the encoder and hands the vectors over, whatever the metric.
 */
export const EMBEDDING_METRIC_PLUGINS = METRIC_PLUGINS.filter((p): p is Embedding => p.capability === 'embedding');
