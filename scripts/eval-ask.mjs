// The `ask` evaluation (issue 18): for each set A question, the files of the oracle's citations in order (no model),
// scored R@5 / MRR like `context` on the same question in the same process, plus the share of questions whose first
// citation is code (not docs, not a template, changelog, lock file or generated copy) and how many answered
// "no relevant project context found". Development aid on the cached indexes, never a CI gate.
//
//   EVAL=/work/shared/eval EVAL_CACHE=/work/wt/eval/eval-cache node scripts/eval-ask.mjs [--repos hono,fastify] [--limit 20] [--src DIR]
//
// Each question's workspace is its commit's tree (`git archive` from the mirror into a scratch folder) with the
// cached index of that commit copied beside it; --src bundles the engine from another source tree (a before run).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cachedDb, lib, mean, metricsA, questionsOf } from './eval/engine.mjs';

const { values: opt } = parseArgs({ options: {
  repos: { type: 'string' }, limit: { type: 'string', default: '20' }, src: { type: 'string', default: '.' }, 'per-question': { type: 'boolean' },
} });
const src = resolve(opt.src);
const esbuild = await import('esbuild');
const bundle = async (contents, resolveDir, name) => {
  const outfile = resolve(`out/eval/${name}.cjs`);
  await esbuild.build({ stdin: { contents, resolveDir, loader: 'ts' }, bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'error', nodePaths: [resolve('node_modules')] });
  return createRequire(import.meta.url)(outfile);
};
const { createNodeEngine } = await bundle(`export { createNodeEngine } from './src/node/node-engine';`, src, `ask-engine-${Buffer.from(src).toString('hex').slice(-12)}`);
// What counts as code is always this tree's rule, so a before run (--src) is judged like the after run.
const { isBoilerplate } = await bundle(`export { isBoilerplate } from './src/core/oracle/roles';`, resolve('.'), 'ask-roles');
const { expectedMeta, createNodeAssetLocator } = await bundle(`export { expectedMeta } from './src/core/store/expected-meta'; export { createNodeAssetLocator } from './src/node/assets';`, src, `ask-meta-${Buffer.from(src).toString('hex').slice(-12)}`);
const expected = await expectedMeta(createNodeAssetLocator(resolve('dist')))();
const initSqlJs = createRequire(import.meta.url)(resolve('node_modules/sql.js'));
const SQL = await initSqlJs();
// The cached indexes may predate a grammar added for another language (C#, Ruby, PHP): none of set A's 13
// repositories is written in one, so the scratch copy is stamped with this engine's grammar hash rather than
// re-indexing every commit. `context` and `ask` read the same copy, so the comparison stays fair; a schema or
// engine version mismatch still refuses.
function stampGrammar(file) {
  const db = new SQL.Database(readFileSync(file));
  try {
    db.run('UPDATE meta SET value = ? WHERE key = ?', [expected.grammar_hash, 'grammar_hash']);
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
}
const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {} };
const mirrors = lib.loadMirrors(process.env.MIRROR_DIR);
const scratch = join(process.env.BENCH_TMP ?? tmpdir(), `co-eval-ask-${process.pid}`);
const rows = [];
for (const repo of lib.selectRepos(lib.loadConfig(), opt.repos)) {
  const qs = questionsOf(repo, 'A', Number(opt.limit)).filter((q) => existsSync(cachedDb(repo, q.workspace_commit)));
  for (const q of qs) {
    const ws = join(scratch, 'ws');
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(ws, { recursive: true });
    // git archive, not lib.checkoutTree: that one writes into the (shared) eval cache.
    execFileSync('bash', ['-c', `git --git-dir="${mirrors(repo.name)}" archive ${q.workspace_commit} | tar -x -C "${ws}"`]);
    copyFileSync(cachedDb(repo, q.workspace_commit), join(scratch, 'index.db'));
    stampGrammar(join(scratch, 'index.db'));
    const engine = createNodeEngine({ root: ws, indexPath: join(scratch, 'index.db'), cacheDir: join(scratch, 'cache'), logger, assetRoot: resolve('dist'), workers: false });
    try {
      const ctx = await engine.getContextForQuestion(q.question);
      const ctxFiles = ctx.empty ? [] : ctx.nodes.map((n) => n.path);
      const t0 = performance.now();
      const r = await engine.askAll(q.question, { model: null, log: false });
      const ms = performance.now() - t0;
      const cited = r.citations.filter((c) => c.path).map((c) => c.path);
      const first = r.citations[0];
      const code = !!first && first.kind === 'code' && !isBoilerplate(first.path);
      rows.push({ repo: repo.name, id: q.id, ctx: metricsA(q, ctxFiles), ask: metricsA(q, cited), code, none: r.noContext, ms, first: first?.label });
      const top5 = (files) => [...new Set(files)].slice(0, 5).join(',');
      if (opt['per-question']) console.log(`${q.id} ctx r5 ${rows.at(-1).ctx.r5} ask r5 ${rows.at(-1).ask.r5} first ${first?.label ?? '-'} gt ${q.gt.files.join(',')}\n  ctx ${top5(ctxFiles)}\n  ask ${top5(cited)}`);
    } finally {
      await engine.dispose();
    }
  }
  process.stderr.write(`${repo.name}: ${qs.length} questions\n`);
}
rmSync(scratch, { recursive: true, force: true });
const f = (x) => x.toFixed(3);
const line = (name, rs) => `${name.padEnd(22)} n=${String(rs.length).padStart(3)}  context R@5 ${f(mean(rs.map((r) => r.ctx.r5)))} MRR ${f(mean(rs.map((r) => r.ctx.mrr)))}  |  ask R@5 ${f(mean(rs.map((r) => r.ask.r5)))} MRR ${f(mean(rs.map((r) => r.ask.mrr)))}  first is code ${(100 * mean(rs.map((r) => (r.code ? 1 : 0)))).toFixed(1)} %  nothing found ${rs.filter((r) => r.none).length}  ask p50 ${lib.median(rs.map((r) => r.ms)).toFixed(0)} ms`;
for (const repo of [...new Set(rows.map((r) => r.repo))]) console.log(line(repo, rows.filter((r) => r.repo === repo)));
console.log(line('ALL', rows));
