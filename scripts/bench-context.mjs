// npm run bench:context -- [--repos hono,clap] [--questions N] [--cli N] [--max-tokens N]
// Latency of smart context on each development repository (eval-cache/work/*, see ../shared/eval/README.md):
//  - warm, in-process: one engine per repository, a warm-up question, then N questions timed (p50/p95);
//  - CLI: `context-oracle context` as a process per question (pays Node start-up and loading the index).
// Questions are the development set's own texts (commit messages and "where is X defined?"), used for their
// shape only. Prints a table; never a test gate. Goal: p95 ≤ 150 ms warm.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const WORK = resolve(process.env.EVAL_CACHE ?? 'eval-cache', 'work');
const QUESTIONS = resolve(process.env.EVAL ?? '../shared/eval', 'questions');
const SCRATCH = resolve(process.env.BENCH_TMP ?? join(process.env.TMPDIR ?? '/tmp', 'co-bench-context'));
const perRepo = Number(opt('questions', 40));
const cliRuns = Number(opt('cli', 5));
const maxTokens = Number(opt('max-tokens', 8000));
const wanted = opt('repos', '')?.split(',').filter(Boolean) ?? [];

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function loadEngine() {
  const esbuild = await import('esbuild');
  const outfile = resolve('out/bench/node-engine.cjs');
  await esbuild.build({
    entryPoints: [resolve('src/node/node-engine.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'warning',
    // The same CommonJS build of web-tree-sitter the product bundles (see esbuild.mjs).
    plugins: [{ name: 'wts', setup(b) { b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: resolve('node_modules/web-tree-sitter/tree-sitter.cjs') })); } }],
  });
  return createRequire(import.meta.url)(outfile);
}

function questionsFor(dir) {
  const slug = dir.replace(/@.*$/, '');
  const out = [];
  for (const f of [`${slug}.jsonl`, `${slug}.defs.jsonl`]) {
    const p = join(QUESTIONS, f);
    if (!existsSync(p)) continue;
    const lines = readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).question);
    out.push(...lines.slice(0, Math.ceil(perRepo / 2)));
  }
  return out;
}

if (!existsSync(WORK)) {
  console.error(`no development repositories in ${WORK}; run ../shared/eval/setup.mjs first (see its README)`);
  process.exit(2);
}
const { createNodeEngine } = await loadEngine();
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
mkdirSync(SCRATCH, { recursive: true });
const rows = [];
for (const dir of readdirSync(WORK).sort()) {
  if (wanted.length && !wanted.some((w) => dir.includes(w))) continue;
  const root = join(WORK, dir);
  const db = join(SCRATCH, `${dir}.db`);
  const t0 = Date.now();
  const idx = spawnSync(process.execPath, ['dist/cli.js', 'index', '--root', root, '--db', db], { encoding: 'utf8' });
  if (idx.status !== 0) throw new Error(`index of ${dir} failed: ${idx.stderr}`);
  const indexMs = Date.now() - t0;
  const questions = questionsFor(dir);
  const engine = createNodeEngine({ root, indexPath: db, logger: quiet, assetRoot: resolve('dist'), workers: false });
  const c0 = performance.now();
  await engine.getContextForQuestion('warm up: where is the main entry point?', { maxTokens });
  const firstMs = performance.now() - c0;
  const warm = [];
  let tokens = 0;
  for (const q of questions) {
    const s = performance.now();
    const r = await engine.getContextForQuestion(q, { maxTokens });
    warm.push(performance.now() - s);
    tokens += r.tokenCount;
  }
  await engine.dispose();
  const cli = [];
  for (const q of questions.slice(0, cliRuns)) {
    const s = performance.now();
    const r = spawnSync(process.execPath, ['dist/cli.js', 'context', q, '--root', root, '--db', db, '--max-tokens', String(maxTokens)], { encoding: 'utf8' });
    cli.push(performance.now() - s);
    if (r.status !== 0) throw new Error(`context on ${dir} failed: ${r.stderr}`);
  }
  rows.push({ dir, n: warm.length, indexMs, firstMs, p50: quantile(warm, 0.5), p95: quantile(warm, 0.95), max: Math.max(...warm), cli50: quantile(cli, 0.5), tokens: Math.round(tokens / warm.length) });
}

const f = (x) => x.toFixed(0).padStart(6);
console.log(`smart context latency, --max-tokens ${maxTokens} (ms; warm = in-process after one warm-up question)`);
console.log('repository                       n   index  first  warm p50  warm p95  warm max  CLI p50  avg tokens   (index: full the first time, incremental after)');
for (const r of rows) console.log(`${r.dir.padEnd(30)} ${String(r.n).padStart(3)} ${f(r.indexMs)} ${f(r.firstMs)}    ${f(r.p50)}    ${f(r.p95)}    ${f(r.max)}   ${f(r.cli50)}   ${f(r.tokens)}`);
const all = rows.map((r) => r.p95);
console.log(`worst warm p95: ${Math.max(...all).toFixed(0)} ms (goal ≤ 150 ms)`);
