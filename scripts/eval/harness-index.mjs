// The harness's index step with a shared index (README "A shared index"), used as a teammate would use one: instead
// of indexing every question's commit from nothing, import the index last built for the same repository and let
// `context-oracle index` catch up with this checkout (by content hash: changed files parsed again, deleted ones
// dropped, new ones added). The first workspace of a repository gets a full index.
//
//   node scripts/eval/harness-index.mjs --cli dist/cli.js --root WORKSPACE --db INDEX_DIR/index.db --repo OWNER/NAME
//       [--seeds DIR]
//
// Plugged into score.mjs as `--index-cmd` by `eval-retrieval.mjs --seeded`. One seed per repository,
// `<seeds>/<owner>__<name>.db` (default seeds: $EVAL_CACHE/harness-seeds), written by the same `index` run with
// `--export` (one self-contained image, written to a temp file and renamed), so a run killed half-way leaves the
// previous seed whole. The answers must not depend on where the index started: compare a `--seeded` run with a
// plain one (docs/retrieval-eval.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i];
  if (!key.startsWith('--') || process.argv[i + 1] === undefined) fail(`expected --flag value pairs, got ${key}`);
  args[key.slice(2)] = process.argv[i + 1];
}
for (const k of ['cli', 'root', 'db', 'repo']) if (!args[k]) fail(`--${k} is required`);

const seeds = resolve(args.seeds ?? join(process.env.EVAL_CACHE ?? 'eval-cache', 'harness-seeds'));
const slug = args.repo.replace('/', '__');
const seed = join(seeds, `${slug}.db`);
const seedInfo = join(seeds, `${slug}.json`);
mkdirSync(seeds, { recursive: true });

// A seed from another engine version is refused by `index` (index_incompatible): this step then fails loudly rather
// than falling back to a full index unseen.
const seeded = existsSync(seed);
const from = seeded && existsSync(seedInfo) ? JSON.parse(readFileSync(seedInfo, 'utf8')).commit : null;
process.stderr.write(seeded ? `harness-index: importing the ${args.repo} index built at ${from ?? '?'}\n` : `harness-index: no ${args.repo} index yet: full index\n`);
const cli = [resolve(args.cli), 'index', '--root', resolve(args.root), '--db', resolve(args.db), ...(seeded ? ['--import', seed] : []), '--export', seed];
const r = spawnSync(process.execPath, cli, { stdio: ['ignore', 'inherit', 'inherit'] });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(seedInfo, `${JSON.stringify({ repo: args.repo, commit: process.env.BENCH_COMMIT ?? null, importedFrom: from })}\n`);

function fail(message) {
  process.stderr.write(`harness-index: ${message}\n`);
  process.exit(2);
}
