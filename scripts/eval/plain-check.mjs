// The plain-language check set (issue 17): ordinary questions ("how does X work", "where is Y handled") on three
// development repositories, answers checked by reading the code, in test/fixtures/plain-questions/*.jsonl
// ({question, files, repo, commit}; the format `context eval` reads, plus where the answer was checked). Reports R@5
// and MRR for today's ranking and for a fitted model (the first 20 files, as `context` lists them). A check that a
// ranker fitted on commit messages does not make ordinary questions worse, not a target to tune on.
//
//   node scripts/eval/plain-check.mjs [--model src/core/context/ranker-model.json] [--per-question]
//
// Needs each question's workspace index in the evaluation cache (`eval-retrieval.mjs prepare`: the commits are set
// A workspaces).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cachedDb, lib, loadEngineParts, mean, metricsA } from './engine.mjs';

const args = lib.parseArgs(process.argv.slice(2), { 'per-question': 'bool' });
const dir = resolve('test/fixtures/plain-questions');
const model = JSON.parse(readFileSync(resolve(String(args.model ?? 'src/core/context/ranker-model.json')), 'utf8'));
const MAX_FILES = 20;
const DEPTH = 100;

const parts = await loadEngineParts();
const assets = parts.createNodeAssetLocator(resolve('dist'));
const f3 = (x) => x.toFixed(3);
const rows = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
  const qs = lib.readJsonl(join(dir, file));
  const repo = { name: qs[0].repo };
  const per = { today: [], fitted: [] };
  const dbs = new Map();
  for (const q of qs) {
    const path = cachedDb(repo, q.commit);
    if (!existsSync(path)) throw new Error(`${q.repo}@${q.commit}: no cached index (run eval-retrieval.mjs prepare)`);
    if (!dbs.has(path)) dbs.set(path, await parts.IndexDatabase.open(assets, parts.memoryImage(readFileSync(path))));
    const ev = parts.collectEvidence(dbs.get(path), parts.analyseQuestion(q.question));
    const ranked = parts.applyCutoff(parts.rankFiles(ev, parts.DEFAULT_WEIGHTS), parts.DEFAULT_MIN_RELEVANCE).files;
    const feats = parts.fileFeatures(ev, ranked, DEPTH);
    const s = feats.map((f) => Object.entries(model.weights).reduce((acc, [k, w]) => acc + w * f[k], 0));
    const order = feats.map((_, i) => i).sort((a, b) => s[b] - s[a] || a - b);
    const gt = { gt: { files: q.files } };
    const t = metricsA(gt, ranked.slice(0, MAX_FILES).map((r) => r.path));
    const f = metricsA(gt, order.slice(0, MAX_FILES).map((i) => ranked[i].path));
    per.today.push(t);
    per.fitted.push(f);
    if (args['per-question'] && (t.r5 !== f.r5 || t.mrr !== f.mrr)) console.log(`${q.repo}: ${q.question} today r5 ${t.r5} rr ${f3(t.mrr)} fitted r5 ${f.r5} rr ${f3(f.mrr)}`);
  }
  for (const db of dbs.values()) db.close();
  const avg = (ms) => ({ r5: mean(ms.map((m) => m.r5)), mrr: mean(ms.map((m) => m.mrr)) });
  rows.push({ repo: repo.name, n: qs.length, today: avg(per.today), fitted: avg(per.fitted) });
}
const all = { repo: 'ALL (mean of repositories)', n: rows.reduce((a, r) => a + r.n, 0) };
for (const k of ['today', 'fitted']) all[k] = { r5: mean(rows.map((r) => r[k].r5)), mrr: mean(rows.map((r) => r[k].mrr)) };
console.log(`plain-language check set, model ${args.model ?? 'src/core/context/ranker-model.json'}\n`);
console.log('| repository | n | today R@5 | fitted R@5 | today MRR | fitted MRR |');
console.log('|---|---|---|---|---|---|');
for (const r of [...rows, all]) console.log(`| ${r.repo} | ${r.n} | ${f3(r.today.r5)} | ${f3(r.fitted.r5)} | ${f3(r.today.mrr)} | ${f3(r.fitted.mrr)} |`);
