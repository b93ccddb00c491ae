#!/usr/bin/env node
// Set B of the dev evaluation ("Where is X defined?") through the CLI's definition lookup: runs the shared scorer
// with `index` as the index step and `def --from-question` as the adapter, which reads the question file, takes the
// symbol from the question and prints {"results":[{path, line, …}]}, canonical definition first.
//
// usage: node scripts/eval-definitions.mjs [--repos honojs/hono,clap] [--limit N] [--cli dist/cli.js] [--eval DIR]
// Build first (node esbuild.mjs cli worker). Extra flags go to score.mjs; results land in eval-cache/results/.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const take = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const cli = resolve(take('--cli', join(repoRoot, 'dist/cli.js')));
const evalDir = resolve(take('--eval', join(repoRoot, '../shared/eval')));
const quoted = JSON.stringify(cli);
const result = spawnSync(process.execPath, [
  join(evalDir, 'score.mjs'), '--name', 'context-oracle-def', '--set', 'B',
  '--index-cmd', `node ${quoted} index --root {workspace} --db {index_dir}/index.db`,
  '--cmd', `node ${quoted} def --from-question {question_file} --root {workspace} --db {index_dir}/index.db --json`,
  ...args,
], { stdio: 'inherit', cwd: repoRoot });
process.exitCode = result.status ?? 1;
