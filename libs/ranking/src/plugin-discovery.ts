/**
 * Plugin discovery (ADR 0033): a registry finds the plugins of its own folder, so adding a metric
 * is one folder and adding a ranking method one file (and its spec), with no index line to edit.
 *
 * - From sources (Jest, `@swc-node/register`) and from the per-file build (`dist/`, scripts/build.mjs)
 *   the registry's folder is listed when the registry module loads, and each plugin module is
 *   `require`d from there.
 * - A bundle (the CLI's `dist/podium.cjs`, or Vite should the web import a registry) replaces the
 *   call `pluginFolders(__filename)` / `pluginFiles(__filename)` by static imports of the same
 *   modules at build time (scripts/lib/plugin-discovery.mjs, which applies the rules below), so
 *   bundled code lists nothing at run time: a pure lib stays free of I/O in a browser.
 *
 * Rules, both ways: a plugin folder is a subfolder with an `index.ts` (`index.js` in dist/); a
 * plugin file is a sibling `.ts` (`.js`) file that is not a spec, not a declaration file and not
 * the registry itself. Names are listed in code-unit order; registries order plugins themselves.
 */

/** A loaded plugin module: its exports by name. */
export type PluginModule = Readonly<Record<string, unknown>>;

interface DirEntry {
  readonly name: string;
  isDirectory(): boolean;
}

/** The two calls of `node:fs` discovery needs (typed here: a pure lib imports no Node built-in). */
interface FolderReader {
  readdirSync(dir: string, options: { withFileTypes: true }): DirEntry[];
  existsSync(file: string): boolean;
}

const MODULE_FILE = /^[^.].*\.(ts|js)$/;
const NOT_PLUGIN_FILE = /\.(spec|test|d)\.(ts|js)$/;

/** Whether `name`, next to the registry file `caller` (a base name), is a plugin file. */
export function isPluginFileName(name: string, caller: string): boolean {
  return MODULE_FILE.test(name) && !NOT_PLUGIN_FILE.test(name) && stem(name) !== stem(caller);
}

const stem = (name: string): string => name.replace(/\.(ts|js)$/, '');

function split(file: string): { dir: string; base: string } {
  const at = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return { dir: file.slice(0, at), base: file.slice(at + 1) };
}

function reader(): FolderReader {
  // Only reached from sources and the per-file build; bundles replace the calling expression.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one Node call of plugin discovery, absent from bundles (see the file's comment)
  return require('node:fs') as FolderReader;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Names of the plugin folders next to the registry file `caller` (pass `__filename`). */
export function pluginFolderNames(caller: string): string[] {
  const { dir } = split(caller);
  const fs = reader();
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (fs.existsSync(`${dir}/${e.name}/index.ts`) || fs.existsSync(`${dir}/${e.name}/index.js`)))
    .map((e) => e.name)
    .sort(byCodeUnit);
}

/** Module names (without extension) of the plugin files next to the registry file `caller`. */
export function pluginFileNames(caller: string): string[] {
  const { dir, base } = split(caller);
  return reader()
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.isDirectory() && isPluginFileName(e.name, base))
    .map((e) => stem(e.name))
    .sort(byCodeUnit);
}

function load(caller: string, names: readonly string[]): PluginModule[] {
  const { dir } = split(caller);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- discovered plugin modules, by path (bundles import them statically instead)
  return names.map((name) => require(`${dir}/${name}`) as PluginModule);
}

/**
 * The modules of the plugin folders next to the registry file `caller`, in folder-name order.
 * Call it exactly as `pluginFolders(__filename)`: bundlers match that text.
 */
export function pluginFolders(caller: string): PluginModule[] {
  return load(caller, pluginFolderNames(caller));
}

/**
 * The modules of the plugin files next to the registry file `caller`, in file-name order.
 * Call it exactly as `pluginFiles(__filename)`: bundlers match that text.
 */
export function pluginFiles(caller: string): PluginModule[] {
  return load(caller, pluginFileNames(caller));
}
