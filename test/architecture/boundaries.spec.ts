/**
 * Module boundaries (docs/architecture.md "What goes where" and "Boundaries"): apps import libs,
 * never the reverse; libs import each other only through `@podium/<lib>`; libs/metrics and
 * libs/ranking are pure TypeScript (no Node built-ins, no Nest, no database) so they can be
 * published alone; libs/domain imports nothing of ours and only node:crypto/node:util; only
 * libs/db imports Prisma.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defined } from '../support/defined';

const root = path.resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'generated' || name === 'dist') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`]*?from\s+['"]([^'"]+)['"]/g)) found.push(defined(m[1]));
  for (const m of text.matchAll(/(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(defined(m[1]));
  return found;
}

const libs = readdirSync(path.join(root, 'libs')).filter((d) => statSync(path.join(root, 'libs', d)).isDirectory());

describe('module boundaries', () => {
  it('finds the libraries and their sources', () => {
    expect(libs).toEqual(expect.arrayContaining(['metrics', 'ranking', 'nli', 'db', 'domain', 'contracts', 'config']));
    expect(sourceFiles(path.join(root, 'libs', 'metrics', 'src')).length).toBeGreaterThan(3);
  });

  it.each(libs)('libs/%s never imports an app or reaches into another lib’s files', (lib) => {
    const bad: string[] = [];
    for (const file of sourceFiles(path.join(root, 'libs', lib, 'src'))) {
      for (const spec of imports(file)) {
        const resolved = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : '';
        // Specs may use the shared test helpers (as eslint.config.mjs allows); sources may not.
        if (/\.spec\.tsx?$/.test(file) && resolved.startsWith(path.join(root, 'test', 'support') + path.sep)) continue;
        if (spec.includes('apps/') || resolved.startsWith(path.join(root, 'apps'))) bad.push(`${path.relative(root, file)} → ${spec}`);
        if (resolved && !resolved.startsWith(path.join(root, 'libs', lib))) bad.push(`${path.relative(root, file)} → ${spec}`);
        if (/^@podium\/[^/]+\/.+/.test(spec)) bad.push(`${path.relative(root, file)} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // The packages a pure lib may use, all plain JavaScript without I/O that runs in browsers too
  // (as eslint.config.mjs's PURE_PACKAGES): zod for the metric registry's option schemas, wink-nlp
  // and its web model for DiscoScore's noun foci, ml-matrix for the SVD of XMoverScore's mapping
  // fit. Nothing else, so these libs stay publishable on their own.
  const PURE_ALLOWED = new Set(['zod', 'wink-nlp', 'wink-eng-lite-web-model', 'ml-matrix']);
  // Test-only modules that specs and benches read, never exported: the transport's LP reference (HiGHS).
  const TEST_ONLY = new Map([['libs/metrics/src/transport/lp-reference.ts', new Set(['highs'])]]);
  it.each(['metrics', 'ranking'])('libs/%s is pure: no Node built-ins, Nest, Prisma, pg or other Podium libs', (lib) => {
    const bad: string[] = [];
    for (const file of sourceFiles(path.join(root, 'libs', lib, 'src'))) {
      if (/\.spec\.tsx?$/.test(file)) continue; // specs may read golden files
      for (const spec of imports(file)) {
        if (spec.startsWith('.') || PURE_ALLOWED.has(spec) || TEST_ONLY.get(path.relative(root, file))?.has(spec)) continue;
        bad.push(`${path.relative(root, file)} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // The domain's rules hold wherever they run: no database, Nest or I/O, none of our other libs.
  // node:crypto (scrypt, token hashes) and node:util (promisify) are its only imports.
  const DOMAIN_ALLOWED = new Set(['node:crypto', 'node:util']);
  it('libs/domain imports nothing but node:crypto and node:util', () => {
    const bad: string[] = [];
    for (const file of sourceFiles(path.join(root, 'libs', 'domain', 'src'))) {
      if (/\.spec\.tsx?$/.test(file)) continue;
      for (const spec of imports(file)) {
        if (spec.startsWith('.') || DOMAIN_ALLOWED.has(spec)) continue;
        bad.push(`${path.relative(root, file)} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // Errors are matched by class (`instanceof`), never by their name string, which any class may
  // claim and which a rename breaks silently (docs/style.md "Errors").
  it('no source matches an error by its name string', () => {
    const bad: string[] = [];
    for (const dir of ['apps', 'libs']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/\.name\s*[!=]==?\s*['"`]\w*Error['"`]/g)) bad.push(`${path.relative(root, file)}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('only libs/db imports Prisma', () => {
    const bad: string[] = [];
    for (const dir of ['apps', 'libs']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        if (file.startsWith(path.join(root, 'libs', 'db'))) continue;
        for (const spec of imports(file)) if (spec.startsWith('@prisma/')) bad.push(`${path.relative(root, file)} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
