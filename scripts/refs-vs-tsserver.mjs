#!/usr/bin/env node
// References from the headless index against the TypeScript language service. Indexes a TypeScript checkout with
// the built CLI, samples exported top-level definitions of non-test source files (seeded), runs
// LanguageService.findReferences at each definition's name and `context-oracle refs` for the same symbol, and
// compares the two sets of (path, line, column) locations. tsserver is the truth: precision = shared / index,
// recall = shared / tsserver, both micro-averaged over the sample (macro averages printed too).
//
// usage: node scripts/refs-vs-tsserver.mjs [checkout] [--sample 50] [--seed 7] [--db FILE] [--no-index] [--verbose] [--members]
//          [--cli dist/cli.js]
//   default checkout: eval-cache/work/honojs__hono@* ; run `node esbuild.mjs cli worker` first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const flag = (name) => (args.includes(name) ? (args.splice(args.indexOf(name), 1), true) : false);
const sampleSize = Number(option('--sample', '50'));
const seed = Number(option('--seed', '7'));
const verbose = flag('--verbose');
// --members samples methods of top-level classes instead: the index cannot type receivers, so expect less.
const members = flag('--members');
const noIndex = flag('--no-index');
const cli = resolve(option('--cli', join(repoRoot, 'dist/cli.js')));
const dbOption = option('--db', undefined);
const workDir = join(repoRoot, 'eval-cache/work');
const checkout = resolve(args[0] ?? join(workDir, readdirSync(workDir).find((d) => d.startsWith('honojs__hono@')) ?? 'missing'));
const dbPath = dbOption ?? (join(tmpdir(), `refs-vs-tsserver-${checkout.split(sep).pop().replace(/[^\w.-]/g, '_')}.db`));
if (!existsSync(checkout)) {
  console.error(`no checkout at ${checkout}`);
  process.exit(2);
}

if (!noIndex) {
  rmSync(dbPath, { force: true });
  execFileSync(process.execPath, [cli, 'index', '--root', checkout, '--db', dbPath, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// --- the sample: exported top-level definitions in non-test TypeScript source files --------------------------
const initSqlJs = require(join(repoRoot, 'node_modules/sql.js/dist/sql-wasm.js'));
const SQL = await initSqlJs({ locateFile: (f) => join(repoRoot, 'node_modules/sql.js/dist', f) });
const db = new SQL.Database(readFileSync(dbPath));
const rows = [];
const stmt = db.prepare(members
  ? `SELECT s.name, s.qualified_name, s.kind, s.name_line, s.name_col, f.path, c.name_line AS container_line FROM symbols s
     JOIN files f ON f.id = s.file_id JOIN symbols c ON c.file_id = s.file_id AND c.qualified_name = s.container
     WHERE c.container IS NULL AND c.kind = 'class' AND s.kind = 'method' AND s.name <> 'constructor' AND f.language IN ('typescript', 'tsx')
     ORDER BY f.path, s.name_line`
  : `SELECT s.name, s.qualified_name, s.kind, s.name_line, s.name_col, f.path, s.name_line AS container_line FROM symbols s
     JOIN files f ON f.id = s.file_id
     WHERE s.container IS NULL AND f.language IN ('typescript', 'tsx') AND s.kind IN ('function','class','interface','type','enum','constant')
     ORDER BY f.path, s.name_line`);
while (stmt.step()) rows.push(stmt.getAsObject());
const isTest = (p) => /(^|\/)(test|tests|__tests__|runtime-tests|perf-measures|benchmarks)\/|\.test\.|\.spec\./.test(p) || p.endsWith('.d.ts');
const lineOf = (path, line) => readFileSync(join(checkout, path), 'utf8').split('\n')[line - 1] ?? '';
const eligible = rows.filter((r) => !isTest(r.path) && r.path.startsWith('src/') && /^\s*export\b/.test(lineOf(r.path, r.container_line)));
let state = seed >>> 0;
const random = () => { // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
for (let i = eligible.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [eligible[i], eligible[j]] = [eligible[j], eligible[i]];
}
const sample = eligible.slice(0, sampleSize);

// --- the TypeScript language service over every TypeScript file of the checkout ------------------------------
function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(m|c)?tsx?$/.test(name)) out.push(p);
  }
  return out;
}
const fileNames = walk(checkout, []);
const options = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX, jsxImportSource: 'hono/jsx', strict: true, skipLibCheck: true, noEmit: true, allowJs: false,
  esModuleInterop: true, resolveJsonModule: true, allowImportingTsExtensions: true,
};
const versions = new Map(fileNames.map((f) => [f, '1']));
const host = {
  getScriptFileNames: () => fileNames,
  getScriptVersion: (f) => versions.get(f) ?? '1',
  getScriptSnapshot: (f) => (existsSync(f) ? ts.ScriptSnapshot.fromString(readFileSync(f, 'utf8')) : undefined),
  getCurrentDirectory: () => checkout,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());

function tsReferences(row) {
  const file = join(checkout, row.path);
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  // Index columns are 1-based UTF-16 offsets into the line, as are TypeScript's.
  const pos = sf.getPositionOfLineAndCharacter(row.name_line - 1, row.name_col - 1);
  const out = new Set();
  for (const group of service.findReferences(file, pos) ?? []) {
    for (const ref of group.references) {
      const rel = relative(checkout, ref.fileName).split(sep).join('/');
      if (rel.startsWith('..') || rel.includes('node_modules/')) continue;
      const refSf = service.getProgram().getSourceFile(ref.fileName);
      const lc = refSf.getLineAndCharacterOfPosition(ref.textSpan.start);
      const key = `${rel}:${lc.line + 1}:${lc.character + 1}`;
      if (key !== `${row.path}:${row.name_line}:${row.name_col}`) out.add(key); // the definition itself is not a reference
    }
  }
  return out;
}

function indexReferences(row) {
  // Qualify by path so the CLI resolves this very definition (`src.utils.body.parseFormData`).
  const query = [...row.path.replace(/\.(m|c)?tsx?$/, '').split('/'), row.qualified_name].join('.');
  const raw = execFileSync(process.execPath, [cli, 'refs', query, '--root', checkout, '--db', dbPath, '--json', '--limit', '100000'], { encoding: 'utf8' });
  const result = JSON.parse(raw);
  // Overloads share one symbol: any declaration of the group is this definition.
  if (result.definition.path !== row.path || result.definition.qualifiedName !== row.qualified_name) return undefined;
  return new Set(result.results.map((r) => `${r.path}:${r.line}:${r.column}`));
}

let shared = 0, oursTotal = 0, theirsTotal = 0, skipped = 0;
const perSymbol = [];
for (const row of sample) {
  const theirs = tsReferences(row);
  const ours = indexReferences(row);
  if (!ours) {
    skipped++;
    if (verbose) console.log(`skipped ${row.name} ${row.path}:${row.name_line}: the CLI resolved another definition`);
    continue;
  }
  const both = [...ours].filter((k) => theirs.has(k)).length;
  shared += both; oursTotal += ours.size; theirsTotal += theirs.size;
  const p = ours.size ? both / ours.size : 1, r = theirs.size ? both / theirs.size : 1;
  perSymbol.push({ name: row.name, kind: row.kind, path: row.path, ours: ours.size, theirs: theirs.size, p, r,
    missed: [...theirs].filter((k) => !ours.has(k)), extra: [...ours].filter((k) => !theirs.has(k)) });
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
perSymbol.sort((a, b) => (a.p + a.r) - (b.p + b.r));
for (const s of perSymbol.slice(0, verbose ? perSymbol.length : 10)) {
  console.log(`${s.kind.padEnd(9)} ${s.name.padEnd(28)} ${s.path}  index ${s.ours} tsserver ${s.theirs}  P ${s.p.toFixed(2)} R ${s.r.toFixed(2)}`);
  for (const k of s.missed.slice(0, verbose ? 20 : 3)) console.log(`    missed ${k}  ${lineOf(k.split(':')[0], Number(k.split(':')[1])).trim().slice(0, 90)}`);
  for (const k of s.extra.slice(0, verbose ? 20 : 3)) console.log(`    extra  ${k}  ${lineOf(k.split(':')[0], Number(k.split(':')[1])).trim().slice(0, 90)}`);
}
console.log(`\n${checkout.split(sep).pop()}: ${perSymbol.length} symbols (${skipped} skipped: the CLI resolved another definition)`);
console.log(`references: index ${oursTotal}, tsserver ${theirsTotal}, shared ${shared}`);
console.log(`precision ${(shared / Math.max(1, oursTotal)).toFixed(3)}  recall ${(shared / Math.max(1, theirsTotal)).toFixed(3)}  (micro)`);
console.log(`precision ${mean(perSymbol.map((s) => s.p)).toFixed(3)}  recall ${mean(perSymbol.map((s) => s.r)).toFixed(3)}  (macro)`);
