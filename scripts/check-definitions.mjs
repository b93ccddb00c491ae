#!/usr/bin/env node
// Definition accuracy on a real repository: indexes a checkout with the built CLI, then checks that every
// "Where is X defined?" question in a defs.jsonl has a symbol named X in the ground-truth file whose name line
// or start line is within ±2 of the ground-truth line. Prints the hit rate and every miss.
//
// usage: node scripts/check-definitions.mjs <checkout-dir> <defs.jsonl> [--db FILE] [--no-index]
//   e.g. node scripts/check-definitions.mjs eval-cache/work/honojs__hono@28a9c128912d \
//          /work/shared/eval/questions/honojs__hono.defs.jsonl
// Run `node esbuild.mjs cli worker` first. Exit code 1 when any question misses.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOLERANCE = 2;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const noIndex = args.includes('--no-index');
if (noIndex) args.splice(args.indexOf('--no-index'), 1);
const dbPath = flag('--db') ?? join(tmpdir(), `check-defs-${basename(args[0] ?? 'repo').replace(/[^\w.-]/g, '_')}.db`);
const [checkout, defsFile] = args;
if (!checkout || !defsFile) {
  console.error('usage: node scripts/check-definitions.mjs <checkout-dir> <defs.jsonl> [--db FILE] [--no-index]');
  process.exit(2);
}

if (!noIndex) {
  // A fresh index each run: an old one could hide a query change.
  rmSync(dbPath, { force: true });
  const started = Date.now();
  execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'index', '--root', resolve(checkout), '--db', dbPath, '--json'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`indexed ${checkout} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

const initSqlJs = require(join(repoRoot, 'node_modules/sql.js/dist/sql-wasm.js'));
const SQL = await initSqlJs({ locateFile: (f) => join(repoRoot, 'node_modules/sql.js/dist', f) });
const db = new SQL.Database(readFileSync(dbPath));
const stmt = db.prepare(
  'SELECT f.path, s.kind, s.qualified_name, s.line_start, s.name_line FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ?',
);
const definitionsOf = (name) => {
  const rows = [];
  stmt.bind([name]);
  while (stmt.step()) rows.push(stmt.getAsObject());
  stmt.reset();
  return rows;
};

const questions = readFileSync(defsFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const misses = [];
for (const q of questions) {
  const rows = definitionsOf(q.name);
  const near = (line) => Math.abs(line - q.gt.line) <= TOLERANCE;
  const hit = rows.some((r) => r.path === q.gt.file && (near(r.name_line) || near(r.line_start)));
  if (!hit) misses.push({ q, rows });
}
stmt.free();
db.close();

const hits = questions.length - misses.length;
console.log(`${basename(defsFile)}: ${hits}/${questions.length} (${((100 * hits) / Math.max(1, questions.length)).toFixed(1)}%)`);
for (const { q, rows } of misses) {
  const found = rows.length
    ? rows.slice(0, 4).map((r) => `${r.path}:${r.name_line} ${r.kind} ${r.qualified_name}`).join('; ')
    : 'no symbol with that name';
  console.log(`  MISS ${q.name} (${q.kind}) expected ${q.gt.file}:${q.gt.line}; found: ${found}`);
}
process.exit(misses.length ? 1 : 0);
