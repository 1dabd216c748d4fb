// `node scripts/code-counts.mjs [--lint] [--json]`: counts that issue #14 tracks, per folder
// (apps/<app>, libs/<lib>, and the other top-level folders), over the TypeScript files git tracks
// except generated ones (apps/web/src/graphql/generated.ts; Prisma's client is not tracked).
//   as casts    AsExpression and TypeAssertion (`<T>x`) nodes, excluding `as const`
//               (import/export renames `{ a as b }` are not expressions and are never counted);
//   !           NonNullExpression nodes (`x!`);
//   disables    comments containing `eslint-disable` (line, next-line and block forms).
// Parsed with the TypeScript compiler API (syntax only, no type checking).
// --lint also runs ESLint (eslint.config.mjs, no cache) and prints its problems by rule, including
// every linted path.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));

function folderOf(file) {
  const parts = file.split('/');
  return parts[0] === 'apps' || parts[0] === 'libs' ? parts.slice(0, 2).join('/') : parts.length > 1 ? parts[0] : '(root)';
}

function isAsConst(node) {
  return ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';
}

/** Counts in one file's text. */
export function countSource(fileName, text) {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const c = { casts: 0, nonNull: 0, disables: 0 };
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) c.casts++;
    else if (ts.isNonNullExpression(node)) c.nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // Comments: the leading trivia of every token (getChildren includes punctuation such as a `}` after
  // a comment), so that `eslint-disable` inside a string or regex is not counted.
  const comments = new Map(); // start → text
  const tokens = (node) => {
    for (const r of ts.getLeadingCommentRanges(text, node.pos) ?? []) comments.set(r.pos, text.slice(r.pos, r.end));
    for (const r of ts.getTrailingCommentRanges(text, node.end) ?? []) comments.set(r.pos, text.slice(r.pos, r.end));
    for (const child of node.getChildren(sf)) tokens(child);
  };
  tokens(sf);
  for (const comment of comments.values()) if (comment.includes('eslint-disable')) c.disables++;
  return c;
}

const files = execFileSync('git', ['ls-files', '--', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.endsWith('.d.ts') && !/(^|\/)generated(\.ts|\/)/.test(f)); // hand-written code only
const byFolder = new Map();
const total = { casts: 0, nonNull: 0, disables: 0 };
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue; // deleted in the working tree
  }
  const c = countSource(file, text);
  const key = folderOf(file);
  const f = byFolder.get(key) ?? { casts: 0, nonNull: 0, disables: 0 };
  for (const k of Object.keys(total)) {
    f[k] += c[k];
    total[k] += c[k];
  }
  byFolder.set(key, f);
}

const report = { files: files.length, total, byFolder: Object.fromEntries([...byFolder].sort(([a], [b]) => a.localeCompare(b))) };

if (args.has('--lint')) {
  const { refreshProjectGraph, LINT_TARGETS } = await import('./lib/lint.mjs');
  refreshProjectGraph();
  const { ESLint } = await import('eslint');
  const eslint = new ESLint({ cwd: root, cache: false });
  const results = await eslint.lintFiles(LINT_TARGETS);
  const byRule = {};
  for (const r of results) for (const m of r.messages) byRule[m.ruleId ?? '(unused disable or parse error)'] = (byRule[m.ruleId ?? '(unused disable or parse error)'] ?? 0) + 1;
  report.lint = { problems: Object.values(byRule).reduce((a, b) => a + b, 0), byRule: Object.fromEntries(Object.entries(byRule).sort((a, b) => b[1] - a[1])) };
}

if (args.has('--json')) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const row = (name, c) => `${name.padEnd(18)} ${String(c.casts).padStart(8)} ${String(c.nonNull).padStart(6)} ${String(c.disables).padStart(9)}`;
  console.log(`${'folder'.padEnd(18)} ${'as casts'.padStart(8)} ${'!'.padStart(6)} ${'disables'.padStart(9)}`);
  for (const [k, c] of Object.entries(report.byFolder)) console.log(row(k, c));
  console.log(row('total', total));
  console.log(`(${files.length} tracked .ts/.tsx files; as casts exclude \`as const\`)`);
  if (report.lint) {
    console.log(`\nESLint problems by rule, pending paths included: ${report.lint.problems}`);
    for (const [rule, n] of Object.entries(report.lint.byRule)) console.log(`${String(n).padStart(6)}  ${rule}`);
  }
}
