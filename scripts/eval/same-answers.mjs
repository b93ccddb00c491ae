// Compares two score.mjs result files (or `eval-retrieval.mjs fast --out`) question by question, on the questions
// both hold: the ranked list (`top`: path and line, first 10) and the status. Prints every question that differs
// and a count; exits 1 when any does. Used to check that the seeded harness (eval-retrieval.mjs --seeded) answers
// as the harness with a fresh index per commit, and as `fast`.
//
//   node scripts/eval/same-answers.mjs A.json B.json [--top N]   (N: compare the first N entries, default 10)
import { readFileSync } from 'node:fs';

const [fileA, fileB, flag, n] = process.argv.slice(2);
const top = flag === '--top' ? Number(n) : 10;
if (!fileA || !fileB) {
  process.stderr.write('usage: node scripts/eval/same-answers.mjs A.json B.json [--top N]\n');
  process.exit(2);
}
const load = (f) => new Map(JSON.parse(readFileSync(f, 'utf8')).records.map((r) => [r.id, r]));
const a = load(fileA);
const b = load(fileB);
const list = (r) => r.top.slice(0, top).map((e) => `${e.path}:${e.line}`).join(' ');
const show = (r) => `${r.status} ${list(r)}`;
let same = 0;
const differ = [];
const both = [...a.keys()].filter((id) => b.has(id));
for (const id of both) {
  const x = a.get(id);
  const y = b.get(id);
  if (x.status === y.status && list(x) === list(y)) same++;
  else differ.push(id);
}
for (const id of differ) process.stdout.write(`${id}\n  A: ${show(a.get(id))}\n  B: ${show(b.get(id))}\n`);
process.stdout.write(`${same} of ${both.length} questions answered the same (first ${top} entries), ${differ.length} differently`
  + ` (${a.size - both.length} only in the first file, ${b.size - both.length} only in the second)\n`);
process.exitCode = differ.length ? 1 : 0;
