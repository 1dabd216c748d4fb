/**
 * Drift check for the web app's generated GraphQL types, like the schema check in
 * apps/api/src/graphql-schema.spec.ts: runs the codegen of apps/web/codegen.ts (same schema,
 * operations, plugins and options) into a temporary file and compares it with the committed
 * apps/web/src/graphql/generated.ts. Regenerate with `npm run codegen:web`.
 * The codegen CLI is ESM (its yargs cannot load under Jest's CommonJS), so it runs as a process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import codegenConfig from '../../apps/web/codegen';
import { defined } from '../support/defined';

// Starts a Node process that loads the codegen plugins: seconds on a loaded 2-core machine.
jest.setTimeout(120_000);

const root = path.resolve(__dirname, '..', '..');

describe('committed web GraphQL types', () => {
  it('equal what `npm run codegen:web` generates from apps/api/schema.graphql and the web operations', () => {
    const entries = Object.entries(codegenConfig.generates);
    expect(entries).toHaveLength(1);
    const [target, output] = defined(entries[0]);
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-codegen-'));
    try {
      const out = path.join(dir, 'generated.ts');
      const config = { ...codegenConfig, silent: true, generates: { [out]: output } };
      writeFileSync(path.join(dir, 'codegen.json'), JSON.stringify(config));
      const bin = path.join(root, 'node_modules', '@graphql-codegen', 'cli', 'esm', 'bin.js');
      execFileSync(process.execPath, [bin, '--config', path.join(dir, 'codegen.json')], { cwd: root, stdio: 'pipe' });
      expect(readFileSync(path.join(root, target), 'utf8')).toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
