/**
 * The ESLint configuration enforces the architecture (docs/architecture.md "Boundaries"):
 * these cases lint tiny in-memory sources placed inside a project with the repository's own
 * eslint.config.mjs, and expect the boundary rules to fire — or not to fire for an allowed import,
 * so that a rule which errs in either direction fails here. Nx's rule skips itself silently
 * without a cached project graph, which is what the first case guards against.
 *
 * ESLint loads its flat config through a dynamic `import()`, which Jest's module sandbox does not
 * support, so the linting runs in a child `node` process (ESLint Node API, `lintText`).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

interface Finding {
  ruleId: string | null;
  message: string;
}

const LINT_SCRIPT = `
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { refreshProjectGraph } from './scripts/lib/lint.mjs';
const cases = JSON.parse(process.argv[1]);
refreshProjectGraph();
// The probes exist only in memory, so no tsconfig program holds them: lint them without types.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }] });
const out = [];
for (const c of cases) {
  const [result] = await eslint.lintText(c.code, { filePath: c.filePath });
  out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
}
process.stdout.write(JSON.stringify(out));
`;

/** Lints each source as if it were the file at `filePath` (relative to the repository root). */
function lintSources(cases: { filePath: string; code: string }[]): Finding[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT_SCRIPT, JSON.stringify(cases.map((c) => ({ ...c, filePath: path.join(root, c.filePath) })))], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    timeout: 120_000,
  });
  return JSON.parse(stdout) as Finding[][];
}

const rule = (findings: Finding[], ruleId: string) => findings.filter((f) => f.ruleId === ruleId).map((f) => f.message);

describe('ESLint enforces module boundaries', () => {
  const cases = {
    libImportsApp: { filePath: 'libs/contracts/src/boundary-probe.ts', code: "import { createApp } from '../../../apps/api/src/app';\nexport const probe = createApp;\n" },
    pureImportsImpure: { filePath: 'libs/metrics/src/boundary-probe.ts', code: "import { createDb } from '@podium/db';\nexport const probe = createDb;\n" },
    pureImportsNode: { filePath: 'libs/metrics/src/boundary-probe.ts', code: "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n" },
    appImportsPrisma: { filePath: 'apps/api/src/boundary-probe.ts', code: "import { PrismaClient } from '@prisma/client';\nexport const probe = PrismaClient;\n" },
    allowed: { filePath: 'libs/nli/src/boundary-probe.ts', code: "import { metricPlugin } from '@podium/metrics';\nexport const probe = metricPlugin;\n" },
    // ranking, not db: db imports the domain, so Nx would report the cycle before the tags.
    domainImportsLib: { filePath: 'libs/domain/src/boundary-probe.ts', code: "import { mulberry32 } from '@podium/ranking';\nexport const probe = mulberry32;\n" },
    domainImportsNode: { filePath: 'libs/domain/src/boundary-probe.ts', code: "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n" },
    domainImportsCrypto: { filePath: 'libs/domain/src/boundary-probe.ts', code: "import { randomBytes } from 'node:crypto';\nexport const probe = randomBytes;\n" },
    dbImportsDomain: { filePath: 'libs/db/src/boundary-probe.ts', code: "import { NotFoundError } from '@podium/domain';\nexport const probe = NotFoundError;\n" },
  };
  let findings: Record<keyof typeof cases, Finding[]>;

  beforeAll(() => {
    const names = Object.keys(cases) as (keyof typeof cases)[];
    const results = lintSources(names.map((n) => cases[n]));
    findings = Object.fromEntries(names.map((n, i) => [n, results[i] ?? []])) as typeof findings;
  }, 180_000);

  it('reports a lib that imports an app', () => {
    expect(rule(findings.libImportsApp, '@nx/enforce-module-boundaries')).toEqual([expect.stringMatching(/app|relative/i)]);
  });

  it('reports a type:pure lib (metrics) that imports a lib which is not pure (db)', () => {
    expect(rule(findings.pureImportsImpure, '@nx/enforce-module-boundaries')).toEqual([expect.stringContaining('type:pure')]);
  });

  it('reports Node I/O in a type:pure lib', () => {
    expect(rule(findings.pureImportsNode, 'no-restricted-imports')).toEqual([expect.stringContaining('node:fs')]);
  });

  it('reports Prisma imported outside libs/db', () => {
    expect(rule(findings.appImportsPrisma, 'no-restricted-imports')).toEqual([expect.stringContaining('@prisma/client')]);
  });

  it('reports libs/domain importing another of our libs (ranking): the domain sits below them all', () => {
    expect(rule(findings.domainImportsLib, '@nx/enforce-module-boundaries')).toEqual([expect.stringContaining('scope:domain')]);
  });

  it('reports Node I/O in libs/domain and allows node:crypto (credentials)', () => {
    expect(rule(findings.domainImportsNode, 'no-restricted-imports')).toEqual([expect.stringContaining('node:fs')]);
    expect(rule(findings.domainImportsCrypto, 'no-restricted-imports')).toEqual([]);
    expect(rule(findings.domainImportsCrypto, '@nx/enforce-module-boundaries')).toEqual([]);
  });

  it('allows libs/db to import the domain', () => {
    expect(rule(findings.dbImportsDomain, '@nx/enforce-module-boundaries')).toEqual([]);
  });

  it('allows a lib to import another lib through its @podium alias', () => {
    expect(rule(findings.allowed, '@nx/enforce-module-boundaries')).toEqual([]);
    expect(findings.allowed.filter((f) => f.ruleId === null)).toEqual([]); // no parse errors either
  });
});
