// Fits a linear file ranker on the feature dump (dump-features.mjs) and scores it leave-one-repository-out (issue 17):
// for each repository, the model is fitted on the others and ranks that repository's set A questions. Per repository
// it prints today's ranking, the held-out fitted ranking and BM25 (../shared/eval/reference/bm25.json, same
// questions), R@5 and MRR as score.mjs computes them (the first 20 files, as `context` lists them).
//
//   node scripts/eval/fit-ranker.mjs [--in DIR] [--repos a,b] [--features f1,f2|today] [--neg-depth 100] [--l2 0.01]
//                                    [--free todayScore] [--iters 400] [--write [--model FILE]] [--json FILE] [--per-question]
//
// --in is the dump's folder (default <eval-cache>/features, dump-features.mjs --out). --write stores the model fitted
// on every dumped repository (default src/core/context/ranker-model.json, which the product ranks by); the fit is full-batch and seeded by nothing,
// so the same dump gives the same file. --json writes the LORO table.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lib, mean, metricsA } from './engine.mjs';

const args = lib.parseArgs(process.argv.slice(2), { 'per-question': 'bool', write: 'bool' });
const dir = resolve(args.in ?? join(lib.CACHE_DIR, 'features'));
const MAX_FILES = 20;
// Hyperparameters: fixed when given, else chosen inside each fold by leave-one-repository-out on its training
// repositories (nested), so that the held-out repository never picks them either.
const GRID = (args['neg-depth'] ? [Number(args['neg-depth'])] : [20, 100])
  .flatMap((negDepth) => (args.l2 ? [Number(args.l2)] : [0.01, 0.1, 1]).map((l2) => ({ negDepth, l2 })));
const iters = Number(args.iters ?? 400);
// Features left out of the l2 penalty: by default today's score, so the fit is pulled towards today's order, not to none.
const free = new Set(String(args.free ?? 'todayScore').split(',').filter(Boolean));
const meta = JSON.parse(readFileSync(join(dir, 'features.json'), 'utf8'));
const TODAY = ['entity', 'proximity', 'bm25File', 'bm25Chunk', 'focus', 'path', 'mentionRef', 'coverage', 'clsTest', 'clsAux', 'clsGenerated', 'clsTooling', 'testAsked'];
const names = args.features === 'today' ? TODAY : args.features ? String(args.features).split(',') : Object.keys(meta.features);
for (const n of names) if (!(n in meta.features)) throw new Error(`unknown feature ${n} (see ${join(dir, 'features.json')})`);

// ---------------------------------------------------------------- data

const order = lib.loadConfig().repos.map((r) => r.name);
const wanted = args.repos ? new Set(lib.selectRepos(lib.loadConfig(), args.repos).map((r) => r.name)) : undefined;
const questions = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()
  .flatMap((f) => lib.readJsonl(join(dir, f)))
  .filter((q) => !wanted || wanted.has(q.repo))
  .map((q) => ({ ...q, x: q.cands.map((c) => names.map((n) => c.f[n])) }));
const repos = order.filter((r) => questions.some((q) => q.repo === r));
const bm25 = new Map(JSON.parse(readFileSync(join(lib.REFERENCE_DIR, 'bm25.json'), 'utf8')).records.filter((r) => r.set === 'A').map((r) => [r.id, r]));

// ---------------------------------------------------------------- model: pairwise logistic (RankNet, linear)

/**
 * Minimises, per question, the mean over (changed file, other file) pairs of log(1 + exp(-(s_pos - s_neg))), every
 * question weighing the same, plus l2·|w|², on standardised features; full-batch Adam, a fixed number of steps.
 * Returns weights on the raw features (a constant offset does not change an order, so there is no bias).
 */
function fit(train, hp) {
  const d = names.length;
  const mu = new Array(d).fill(0);
  const sd = new Array(d).fill(0);
  let n = 0;
  for (const q of train) for (const x of q.x) { n++; for (let k = 0; k < d; k++) mu[k] += x[k]; }
  for (let k = 0; k < d; k++) mu[k] /= Math.max(n, 1);
  for (const q of train) for (const x of q.x) for (let k = 0; k < d; k++) sd[k] += (x[k] - mu[k]) ** 2;
  for (let k = 0; k < d; k++) sd[k] = Math.sqrt(sd[k] / Math.max(n, 1)) || 1;
  // Pair differences, standardised, in one flat array; each question's pairs share a weight of 1.
  const dx = [];
  const pw = [];
  for (const q of train) {
    const pos = q.cands.flatMap((c, i) => (c.label ? [i] : []));
    const neg = q.cands.flatMap((c, i) => (!c.label && c.today < hp.negDepth ? [i] : []));
    if (!pos.length || !neg.length) continue;
    for (const p of pos) for (const m of neg) { pw.push(1 / (pos.length * neg.length)); for (let k = 0; k < d; k++) dx.push((q.x[p][k] - q.x[m][k]) / sd[k]); }
  }
  const X = Float64Array.from(dx);
  const qn = train.filter((q) => q.cands.some((c) => c.label)).length || 1;
  const w = new Float64Array(d);
  const m1 = new Float64Array(d);
  const m2 = new Float64Array(d);
  const g = new Float64Array(d);
  const lr = 0.05;
  for (let t = 1; t <= iters; t++) {
    for (let k = 0; k < d; k++) g[k] = free.has(names[k]) ? 0 : 2 * hp.l2 * w[k];
    for (let p = 0, o = 0; p < pw.length; p++, o += d) {
      let s = 0;
      for (let k = 0; k < d; k++) s += w[k] * X[o + k];
      const c = (-pw[p] / qn) / (1 + Math.exp(s));
      for (let k = 0; k < d; k++) g[k] += c * X[o + k];
    }
    for (let k = 0; k < d; k++) {
      m1[k] = 0.9 * m1[k] + 0.1 * g[k];
      m2[k] = 0.999 * m2[k] + 0.001 * g[k] * g[k];
      w[k] -= (lr * (m1[k] / (1 - 0.9 ** t))) / (Math.sqrt(m2[k] / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return Object.fromEntries(names.map((nm, k) => [nm, Math.round((w[k] / sd[k]) * 1e6) / 1e6]));
}

const scoreWith = (model) => (q) => {
  const s = q.x.map((x) => names.reduce((acc, nm, k) => acc + model[nm] * x[k], 0));
  const order = q.cands.map((c, i) => i).sort((a, b) => s[b] - s[a] || q.cands[a].today - q.cands[b].today);
  return metricsA({ gt: { files: q.gt } }, order.slice(0, MAX_FILES).map((i) => q.cands[i].path));
};
const today = (q) => metricsA({ gt: { files: q.gt } }, q.cands.filter((c) => c.today < MAX_FILES).map((c) => c.path));
/** Best any re-ordering of the dumped list could do: its changed files first. */
const ceiling = (q) => metricsA({ gt: { files: q.gt } }, [...q.cands].sort((a, b) => b.label - a.label || a.today - b.today).slice(0, MAX_FILES).map((c) => c.path));
const ref = (q) => { const r = bm25.get(q.id); return { r5: r?.r5 ?? 0, mrr: r?.rr ?? 0 }; };

// ---------------------------------------------------------------- leave one repository out

const avg = (ms) => ({ r5: mean(ms.map((m) => m.r5)), mrr: mean(ms.map((m) => m.mrr)) });
/** Mean over `repoList` of each repository's held-out R@5 and MRR, fitting on the rest of `repoList`. */
function loro(repoList, hp) {
  return repoList.map((repo) => avg(questions.filter((q) => q.repo === repo).map(scoreWith(fit(questions.filter((q) => q.repo !== repo && repoList.includes(q.repo)), hp)))));
}
/** The grid point with the best mean held-out R@5 + MRR over `repoList` (the first on ties). */
function choose(repoList) {
  if (GRID.length === 1) return GRID[0];
  let best;
  for (const hp of GRID) {
    const folds = loro(repoList, hp);
    const value = mean(folds.map((m) => m.r5 + m.mrr));
    if (!best || value > best.value + 1e-12) best = { hp, value };
  }
  return best.hp;
}

const rows = [];
/** Per held-out question: fitted minus today. */
const diffs = [];
for (const repo of repos) {
  const held = questions.filter((q) => q.repo === repo);
  const others = repos.filter((r) => r !== repo);
  const hp = choose(others);
  const model = fit(questions.filter((q) => q.repo !== repo), hp);
  const t = held.map(today);
  const f = held.map(scoreWith(model));
  held.forEach((q, i) => diffs.push({ id: q.id, r5: f[i].r5 - t[i].r5, mrr: f[i].mrr - t[i].mrr, today: t[i], fitted: f[i] }));
  rows.push({ repo, n: held.length, hp, today: avg(t), fitted: avg(f), bm25: avg(held.map(ref)), ceiling: avg(held.map(ceiling)) });
  process.stderr.write(`held out ${repo}: chose ${JSON.stringify(hp)}\n`);
}
const all = { repo: 'ALL (mean of repositories)', n: rows.reduce((a, r) => a + r.n, 0) };
for (const k of ['today', 'fitted', 'bm25', 'ceiling']) all[k] = { r5: mean(rows.map((r) => r[k].r5)), mrr: mean(rows.map((r) => r[k].mrr)) };
const f3 = (x) => x.toFixed(3);
console.error('ceiling: the best any re-ordering of the dumped list could do (its changed files first).');
const hpText = GRID.length === 1 ? `neg-depth ${GRID[0].negDepth}, l2 ${GRID[0].l2}` : `neg-depth and l2 chosen per fold by nested LORO over ${JSON.stringify(GRID)}`;
console.log(`LORO over ${repos.length} repositories, ${all.n} set A questions; features: ${names.join(',')}; ${hpText}; no l2 on ${[...free].join(',') || 'nothing'}; ${iters} steps\n`);
console.log('| repository | n | today R@5 | LORO-fitted R@5 | BM25 R@5 | today MRR | LORO-fitted MRR | BM25 MRR | ceiling R@5 |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of [...rows, all]) console.log(`| ${r.repo} | ${r.n} | ${f3(r.today.r5)} | ${f3(r.fitted.r5)} | ${f3(r.bm25.r5)} | ${f3(r.today.mrr)} | ${f3(r.fitted.mrr)} | ${f3(r.bm25.mrr)} | ${f3(r.ceiling.r5)} |`);
const worst = Math.min(...rows.flatMap((r) => [r.fitted.r5 - r.today.r5, r.fitted.mrr - r.today.mrr]));
const gate = all.fitted.r5 > all.today.r5 && all.fitted.mrr > all.today.mrr && worst >= -0.05;
console.log(`\nworst per-repository change (R@5 or MRR): ${worst >= 0 ? '+' : ''}${f3(worst)}; gate (beats today overall on both, no repository below today by more than 0.05): ${gate ? 'PASS' : 'FAIL'}`);
// Noise yardstick: the paired per-question difference, mean ± 1.96 standard errors (questions weigh the same here).
const ci = (xs) => { const m = mean(xs); const se = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)) / Math.max(xs.length - 1, 1)); return `${m >= 0 ? '+' : ''}${f3(m)} ± ${f3(1.96 * se)}`; };
console.log(`fitted − today per question: R@5 ${ci(diffs.map((d) => d.r5))}, MRR ${ci(diffs.map((d) => d.mrr))}; ${diffs.filter((d) => d.mrr > 0).length} questions up, ${diffs.filter((d) => d.mrr < 0).length} down (MRR)`);
if (args['per-question']) for (const d of diffs) if (d.r5 || d.mrr) console.log(`${d.id} today ${JSON.stringify(d.today)} fitted ${JSON.stringify(d.fitted)}`);
if (args.json) writeFileSync(resolve(String(args.json)), `${JSON.stringify({ names, grid: GRID, iters, rows, all, worst, gate }, null, 1)}\n`);

if (args.write) {
  const file = resolve(String(args.model ?? 'src/core/context/ranker-model.json'));
  // Hyperparameters by LORO over every repository, then one fit on all of them.
  const hp = choose(repos);
  const out = {
    about: 'Linear file ranker (score = sum of weight x feature) fitted by scripts/eval/fit-ranker.mjs on the set A feature dump of scripts/eval/dump-features.mjs; see docs/retrieval-eval.md. The product re-orders context files by it (src/core/context/fitted-rank.ts); refit only with the command below, and only if its LORO gate passes.',
    command: `node scripts/eval/fit-ranker.mjs ${process.argv.slice(2).join(' ')}`,
    repositories: repos, questions: questions.length, hyperparameters: hp, iters, unpenalised: [...free],
    loro: JSON.parse(JSON.stringify({ today: all.today, fitted: all.fitted, bm25: all.bm25, worst, gate }, (_, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v))),
    weights: fit(questions, hp),
  };
  // In-sample figure of the written model (fitted on every repository): what eval-retrieval.mjs fast --set A should
  // come close to with the product using it; the LORO table above is the honest one.
  const perRepo = repos.map((r) => avg(questions.filter((q) => q.repo === r).map(scoreWith(out.weights))));
  console.log(`all-fit model in sample (mean of repositories): R@5 ${f3(mean(perRepo.map((m) => m.r5)))}, MRR ${f3(mean(perRepo.map((m) => m.mrr)))}`);
  writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
  process.stderr.write(`wrote ${file} (${JSON.stringify(hp)})\n`);
}
