// csv-parse and csv-stringify publish their sync APIs only through package.json "exports",
// which this repository's `moduleResolution: node` does not read; point the types at the files.
declare module 'csv-parse/sync' {
  export * from 'csv-parse/dist/cjs/sync.cjs';
}
declare module 'csv-stringify/sync' {
  export * from 'csv-stringify/dist/cjs/sync.cjs';
}
