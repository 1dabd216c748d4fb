/**
 * Suites shipped with Podium, by id, as paths relative to the repository root. Callers read
 * the file (this library does no I/O): the CLI and the worker.
 */
export const BUILTIN_SUITES: Readonly<Record<string, string>> = {
  'builtin:wmt20-de': 'data/menli-adv-wmt20-de/data.csv',
};
