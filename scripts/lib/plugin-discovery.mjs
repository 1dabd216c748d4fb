// Build-time plugin discovery for bundlers (Rollup-style plugin: rolldown for the CLI bundle, Vite
// should the web import a registry). libs/ranking/src/plugin-discovery.ts lists a registry's
// folder when the registry loads, which works from sources and from the per-file dist/ build; a
// bundle has no such folder, so this plugin replaces `pluginFolders(__filename)` and
// `pluginFiles(__filename)` with static imports of the same modules, chosen by the same rules
// (registry.spec.ts files compare both listings): plugin folders are subfolders with an index.ts;
// plugin files are sibling .ts files that are not specs, declaration files or the registry.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const CALL = /(?<![`\w.])plugin(Folders|Files)\(__filename\)/g; // not in `code` of a comment
const MODULE_FILE = /^[^.].*\.(ts|js)$/;
const NOT_PLUGIN_FILE = /\.(spec|test|d)\.(ts|js)$/;
const stem = (name) => name.replace(/\.(ts|js)$/, '');
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Module specifiers (relative to the registry file) of what `pluginFolders` / `pluginFiles` load there. */
export function discoveredSpecifiers(registryFile, kind) {
  const dir = path.dirname(registryFile);
  const entries = readdirSync(dir, { withFileTypes: true });
  const names =
    kind === 'Folders'
      ? entries.filter((e) => e.isDirectory() && (existsSync(path.join(dir, e.name, 'index.ts')) || existsSync(path.join(dir, e.name, 'index.js')))).map((e) => e.name)
      : entries.filter((e) => !e.isDirectory() && MODULE_FILE.test(e.name) && !NOT_PLUGIN_FILE.test(e.name) && stem(e.name) !== stem(path.basename(registryFile))).map((e) => stem(e.name));
  return names.sort(byCodeUnit).map((n) => `./${n}`);
}

/** The registry's source with each discovery call replaced by an array of namespace imports; null when it has none. */
export function inlineDiscovery(code, registryFile) {
  if (!CALL.test(code)) return null;
  CALL.lastIndex = 0;
  const imports = [];
  const replaced = code.replace(CALL, (_, kind) => {
    const names = discoveredSpecifiers(registryFile, kind).map((spec) => {
      const name = `__discovered${imports.length}`;
      imports.push(`import * as ${name} from ${JSON.stringify(spec)};`);
      return name;
    });
    return `[${names.join(', ')}]`;
  });
  return `${imports.join('\n')}\n${replaced}`;
}

/** The bundler plugin. */
export function pluginDiscovery() {
  return {
    name: 'podium-plugin-discovery',
    transform(code, id) {
      if (!/\.ts$/.test(id) || id.includes('node_modules')) return null;
      const out = inlineDiscovery(code, id);
      return out === null ? null : { code: out, map: null };
    },
  };
}
