// npm run bench:ask [-- --per-set N] [--repos a,b]
// The oracle in extractive mode (no model) on the dev repositories in eval-cache/work/: time to first evidence and
// the first answer token and to the end of the answer, per question, from the engine's own event timestamps (`ms` since the ask started).
// One CLI process per repository answers all its questions in turn: the first is cold (the index is loaded from
// disk), the rest are warm, as in the MCP server or the editor. Questions: the first N of set A (commit messages)
// and of set B ("Where is X defined?") from ../shared/eval/questions; set B also reports whether the first
// citation is the definition's file:line. Goal: first evidence ≤ 300 ms. Medians and p95; never a CI gate.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : fallback; };
const perSet = Number(opt('per-set', 10));
const workDir = resolve('eval-cache/work');
const questionsDir = resolve(opt('questions', '../shared/eval/questions'));
const scratch = resolve('eval-cache/tmp/bench-ask');
mkdirSync(scratch, { recursive: true });
const cli = resolve('dist/cli.js');
const wanted = opt('repos', '')?.split(',').filter(Boolean);

const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN; };
const readJsonl = (p) => (existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

const rows = [];
const allFirst = [];
const allToken = [];
const allTotal = [];
for (const dir of readdirSync(workDir).sort()) {
  const repo = dir.split('@')[0];
  if (wanted?.length && !wanted.some((w) => repo.includes(w))) continue;
  const root = join(workDir, dir);
  const db = join(scratch, `${repo}.db`);
  const indexed = spawnSync(process.execPath, [cli, 'index', '--root', root, '--db', db, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (indexed.status !== 0) { console.error(`${repo}: index failed: ${indexed.stderr}`); continue; }
  const setA = readJsonl(join(questionsDir, `${repo}.jsonl`)).slice(0, perSet);
  const setB = readJsonl(join(questionsDir, `${repo}.defs.jsonl`)).slice(0, perSet);
  // Interleave so both sets see cold and warm runs alike; the very first question is the cold one.
  const questions = [];
  for (let i = 0; i < Math.max(setA.length, setB.length); i++) {
    if (setB[i]) questions.push(setB[i]);
    if (setA[i]) questions.push(setA[i]);
  }
  const file = join(scratch, `${repo}.questions.jsonl`);
  writeFileSync(file, questions.map((q) => JSON.stringify({ question: q.question })).join('\n'));
  const t0 = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, 'ask', '--question-file', file, '--root', root, '--db', db, '--no-model', '--no-log', '--events'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.status !== 0) { console.error(`${repo}: ask failed: ${run.stderr}`); continue; }
  const results = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'done').map((e) => e.result);
  const first = [];
  const token = [];
  const total = [];
  let answered = 0;
  let defHits = 0;
  results.forEach((r, i) => {
    const q = questions[i];
    if (!r.noContext) answered++;
    if (q.set === 'B') {
      const c = r.citations[0];
      if (c && c.path === q.gt.file && c.line === q.gt.line) defHits++;
    }
    if (i === 0) return; // cold: reported on its own
    if (r.stats.firstEvidenceMs !== undefined) first.push(r.stats.firstEvidenceMs);
    if (r.stats.firstAnswerMs !== undefined) token.push(r.stats.firstAnswerMs);
    total.push(r.stats.totalMs);
  });
  const cold = results[0]?.stats;
  allFirst.push(...first);
  allToken.push(...token);
  allTotal.push(...total);
  rows.push({
    repo, questions: results.length, answered,
    setB_firstCitationIsDefinition: `${defHits}/${setB.length}`,
    cold: { firstEvidenceMs: cold?.firstEvidenceMs, firstTokenMs: cold?.firstAnswerMs, totalMs: cold?.totalMs },
    warm: {
      firstEvidenceMs: { p50: quantile(first, 0.5), p95: quantile(first, 0.95) },
      firstTokenMs: { p50: quantile(token, 0.5), p95: quantile(token, 0.95) },
      totalMs: { p50: quantile(total, 0.5), p95: quantile(total, 0.95) },
    },
    processWallMs: Math.round(wallMs),
  });
}
const summary = {
  perSet, mode: 'extractive (no model)',
  warmFirstEvidenceMs: { p50: quantile(allFirst, 0.5), p95: quantile(allFirst, 0.95), goal: 300 },
  warmFirstTokenMs: { p50: quantile(allToken, 0.5), p95: quantile(allToken, 0.95) },
  warmTotalMs: { p50: quantile(allTotal, 0.5), p95: quantile(allTotal, 0.95) },
  repos: rows,
};
console.log(JSON.stringify(summary, null, 2));
