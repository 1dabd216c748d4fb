import type { RankingMethod } from './method';
// Git-ignored, written from this folder by scripts/generate-plugin-index.mjs (`npm run generate`).
import { GENERATED_METHOD_MODULES } from './modules.generated';

/** A method file's module: its exports by name. */
export type PluginModule = Readonly<Record<string, unknown>>;

/**
 * Every method file of this folder (any order: the methods' `order` sorts them), imported by
 * `modules.generated.ts`, which scripts/generate-plugin-index.mjs writes from the folder (ADR 0036).
 */
export const METHOD_MODULES: Readonly<Record<string, PluginModule>> = GENERATED_METHOD_MODULES;

/** Whether an export is a ranking method (a key, a label, an order and an `estimate`). */
export function isRankingMethod(value: unknown): value is RankingMethod {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Record<keyof RankingMethod, unknown>>;
  return typeof m.key === 'string' && typeof m.label === 'string' && typeof m.order === 'number' && typeof m.estimate === 'function';
}

/** The methods exported by these modules, sorted by `order` then key. Throws on a key given twice. */
export function rankingMethodsOf(modules: readonly PluginModule[]): RankingMethod[] {
  const methods = modules.flatMap((m) => Object.values(m).filter(isRankingMethod));
  const seen = new Set<string>();
  for (const m of methods) {
    if (seen.has(m.key)) throw new Error(`ranking method '${m.key}' is registered twice`);
    seen.add(m.key);
  }
  return methods.sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : 1));
}

/**
 * Every ranking method, in the order boards, CSV columns and tables list them: each file of this
 * folder exports one {@link RankingMethod} (ADR 0033; `registry.spec.ts` holds every file to one
 * method and one spec). Adding a method: its file and its spec, nothing else (ADR 0036).
 */
export const RANKING_METHODS: readonly RankingMethod[] = rankingMethodsOf(Object.values(METHOD_MODULES));

/** The method with this key, or undefined. */
export function rankingMethod(key: string): RankingMethod | undefined {
  return RANKING_METHODS.find((m) => m.key === key);
}
