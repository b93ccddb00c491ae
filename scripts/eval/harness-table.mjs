// One markdown table from several score.mjs result files of set A (a harness run split by repository): R@1, R@5,
// R@10 and MRR (score.mjs's, read from each record) per repository and over all their questions, next to
// `eval-retrieval.mjs fast --out` and BM25 ($EVAL/reference/bm25.json) on the same questions, with how many
// questions' first 10 entries differ from fast's.
//
//   node scripts/eval/harness-table.mjs --fast FAST.json RUN.json [RUN.json …]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const at = argv.indexOf('--fast');
if (at < 0 || argv.length < 3) {
  process.stderr.write('usage: node scripts/eval/harness-table.mjs --fast FAST.json RUN.json [RUN.json …]\n');
  process.exit(2);
}
const fastFile = argv.splice(at, 2)[1];
const EVAL = resolve(process.env.EVAL ?? '../shared/eval');
const records = (f) => JSON.parse(readFileSync(f, 'utf8')).records.filter((r) => r.set === 'A');
const runs = argv.flatMap(records);
const byId = (rs) => new Map(rs.map((r) => [r.id, r]));
const fast = byId(records(fastFile));
const bm25 = byId(records(join(EVAL, 'reference/bm25.json')));

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f3 = (x) => x.toFixed(3);
const key = (r) => r.top.slice(0, 10).map((e) => `${e.path}:${e.line}`).join(' ');

const rows = [];
for (const repo of [...new Set(runs.map((r) => r.repo)), null]) {
  const rs = runs.filter((r) => repo === null || r.repo === repo);
  // Each record carries score.mjs's metrics over its whole list (rr = MRR; `top` keeps only 10 entries).
  const h = rs;
  const f = rs.map((r) => fast.get(r.id));
  const b = rs.map((r) => bm25.get(r.id));
  const cell = (ms, k) => f3(mean(ms.map((m) => m[k])));
  const differ = rs.filter((r) => key(r) !== key(fast.get(r.id))).length;
  const fails = rs.filter((r) => r.status !== 'ok').length;
  rows.push(`| ${repo ?? `ALL (${rs.length} questions)`} | ${rs.length} | ${['r1', 'r5', 'r10', 'rr'].map((k) => cell(h, k)).join(' / ')} | ${['r1', 'r5', 'r10', 'rr'].map((k) => cell(f, k)).join(' / ')} | ${cell(b, 'r5')} / ${cell(b, 'rr')} | ${differ} | ${fails} |`);
}
process.stdout.write(['| repository | n | harness R@1 / R@5 / R@10 / MRR | fast R@1 / R@5 / R@10 / MRR | BM25 R@5 / MRR | lists ≠ fast | fail |',
  '|---|---|---|---|---|---|---|', ...rows].join('\n') + '\n');
