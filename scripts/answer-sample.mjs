#!/usr/bin/env node
// A fixed sample of the product's answers, written to one file, so a refactoring commit can show it changed no answer:
// run it before and after and `cmp` the two files (issue 16). It drives the built CLI (`dist/cli.js`), the interface
// every refactor must keep, never engine internals.
//
// The sample: for five dev-set repositories (../shared/eval, mirrors under $MIRROR_DIR), the workspace at set B's
// commit, the first 10 set A and 10 set B questions → `context --format json` and `ask --json --no-model`; and for
// beadloom's own repository (a real declared graph) `ctx` and `why` for its first 20 nodes, `lint --format json`.
// Times and absolute paths are scrubbed so two runs on one machine give the same bytes.
//
//   node scripts/answer-sample.mjs --out /tmp/before.jsonl [--work DIR] [--repos a,b] [--per 10]
// --work defaults to a folder of this checkout's own under the temp dir; EVAL (default ../shared/eval) must hold questions/.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    out: { type: 'string' },
    work: { type: 'string' },
    repos: { type: 'string', default: 'honojs/hono,fastify/fastify,python-poetry/poetry,caddyserver/caddy,clap-rs/clap' },
    per: { type: 'string', default: '10' },
  },
});
if (!opt.out) throw new Error('--out FILE is required');
const root = resolve(new URL('..', import.meta.url).pathname);
const cli = join(root, 'dist/cli.js');
const evalDir = resolve(process.env.EVAL ?? join(root, '../shared/eval'));
if (!existsSync(join(evalDir, 'questions'))) throw new Error(`no eval set at ${evalDir}: set EVAL to the shared eval folder`);
const mirrors = resolve(process.env.MIRROR_DIR ?? '/work/.mirror');
// The default work folder is this checkout's own: two checkouts (git worktrees) sampling at once would otherwise
// index into one another's workspaces and caches.
const work = resolve(opt.work ?? join(tmpdir(), `answer-sample-${createHash('sha256').update(root).digest('hex').slice(0, 10)}`));
const per = Number(opt.per);
mkdirSync(work, { recursive: true });
// Every run gets the same private cache folder, so indexes are reused between the before and after runs only when
// the caller keeps --work; the answers do not depend on it.
const env = { ...process.env, XDG_CACHE_HOME: join(work, 'cache'), NO_COLOR: '1' };

function checkout(slug, commit) {
  const dir = join(work, 'ws', slug.replace('/', '__'), commit.slice(0, 12));
  if (existsSync(join(dir, '.sample-ready'))) return dir;
  mkdirSync(dir, { recursive: true });
  const gitDir = join(mirrors, slug.replace('/', '+'), 'repo');
  execFileSync('bash', ['-c', `git --git-dir="${gitDir}" archive ${commit} | tar -x -C "${dir}"`]);
  writeFileSync(join(dir, '.sample-ready'), commit);
  return dir;
}

function run(args, ws) {
  const r = spawnSync(process.execPath, [cli, ...args, '--root', ws], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: scrub(r.stdout, ws), ...(r.status ? { err: scrub(r.stderr, ws) } : {}) };
}

// Wall-clock figures and the workspace's own location are the only things allowed to differ between runs.
function scrub(text, ws) {
  return text
    .split(ws).join('<ws>')
    .replace(/"(\w*Ms|elapsed|ms|took|generatedAt|at|time|timestamp|indexedAt|checkedAt)":\s*("[^"]*"|[0-9.]+)/g, '"$1":0')
    // A bundle's etag hashes it before paths are made relative here, so it follows the work folder; the bundle
    // itself is compared in full.
    .replace(/"etag":\s*"[^"]*"/g, '"etag":"<etag>"')
    .replace(/\b\d+(\.\d+)? ?ms\b/g, '<ms>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<iso>');
}

const lines = [];
const emit = (o) => lines.push(JSON.stringify(o));

for (const slug of opt.repos.split(',')) {
  const file = join(evalDir, 'questions', `${slug.replace('/', '__')}`);
  const a = readFileSync(`${file}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).slice(0, per);
  const b = readFileSync(`${file}.defs.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const ws = checkout(slug, b[0].workspace_commit);
  const indexed = run(['index'], ws);
  emit({ repo: slug, step: 'index', code: indexed.code });
  for (const q of [...a, ...b.slice(0, per)]) {
    const qf = join(work, 'q.txt');
    writeFileSync(qf, q.question);
    const ctx = run(['context', '--question-file', qf, '--format', 'json'], ws);
    emit({ repo: slug, id: q.id, cmd: 'context', code: ctx.code, out: ctx.out });
    const ask = run(['ask', q.question, '--json', '--no-model', '--no-log'], ws);
    emit({ repo: slug, id: q.id, cmd: 'ask', code: ask.code, out: ask.out });
  }
  process.stderr.write(`${slug}: ${a.length + Math.min(per, b.length)} questions\n`);
}

// beadloom: a real declared graph, its rules and docs; bundles, why and lint are what the refactor must keep.
const bead = join(work, 'ws', 'beadloom');
if (!existsSync(join(bead, '.sample-ready'))) {
  mkdirSync(bead, { recursive: true });
  execFileSync('bash', ['-c', `git --git-dir="${join(mirrors, 'zoologov+beadloom/repo')}" archive 437b88646a8e | tar -x -C "${bead}"`]);
  writeFileSync(join(bead, '.sample-ready'), '437b886');
}
run(['index'], bead);
const graph = JSON.parse(run(['graph', '--json'], bead).out || '{}');
const ids = (graph.nodes ?? []).map((n) => n.ref_id ?? n.id).filter(Boolean).sort().slice(0, 20);
for (const id of ids) {
  emit({ repo: 'beadloom', id, cmd: 'ctx', ...run(['ctx', id, '--json'], bead) });
  emit({ repo: 'beadloom', id, cmd: 'why', ...run(['why', id, '--json'], bead) });
}
emit({ repo: 'beadloom', cmd: 'lint', ...run(['lint', '--format', 'json'], bead) });
writeFileSync(resolve(opt.out), lines.join('\n') + '\n');
process.stderr.write(`${lines.length} answers → ${opt.out} (beadloom nodes: ${ids.length})\n`);
