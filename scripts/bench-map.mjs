#!/usr/bin/env node
// Repo-map timing: `context-oracle map` on the largest dev repository and on a ~5,000-file tree made by copying the
// dev checkouts side by side (kept out of git, in the temp dir, reused across runs). Each target is indexed once,
// then mapped --runs times in fresh processes (a cold graph cache, as a CLI call has). Reports the median and p95
// of the engine's map time (graph load + ranking + fitting, from the JSON stats) and of the whole CLI call (which
// adds process start and loading the index file).
//
// usage: node scripts/bench-map.mjs [--runs 5] [--files 5000] [--tree DIR] [--max-tokens 1024] [--cli dist/cli.js]
// Needs dist/ (npm run bench:map builds it) and eval-cache/work/ checkouts (see ../shared/eval/README.md).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};
const runs = Number(option('--runs', '5'));
const wantFiles = Number(option('--files', '5000'));
const maxTokens = option('--max-tokens', '1024');
const tree = resolve(option('--tree', join(tmpdir(), `context-oracle-bench-map-${wantFiles}`)));
const cli = resolve(option('--cli', join(repoRoot, 'dist/cli.js')));
const workDir = join(repoRoot, 'eval-cache/work');
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|go|rs|java|kt|kts|swift|m|mm|c|h|cc|cpp|cxx|hpp|hh|hxx)$/;

function countSources(dir) {
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (name === '.git' || name === 'node_modules' || name === '.context-oracle') continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) n += countSources(p);
    else if (SOURCE.test(name)) n++;
  }
  return n;
}

const checkouts = readdirSync(workDir).map((d) => join(workDir, d)).filter((p) => statSync(p).isDirectory());
if (!checkouts.length) {
  console.error(`no checkouts in ${workDir}; run ../shared/eval/setup.mjs first`);
  process.exit(2);
}
const sized = checkouts.map((p) => ({ path: p, files: countSources(p) })).sort((a, b) => b.files - a.files);

// The big tree: copies of every checkout until it holds at least --files source files.
const marker = join(tree, '.bench-map-complete');
if (!existsSync(marker)) {
  mkdirSync(tree, { recursive: true });
  let total = 0;
  for (let copy = 1; total < wantFiles; copy++) {
    for (const c of sized) {
      cpSync(c.path, join(tree, `copy${copy}`, c.path.split('/').pop()), { recursive: true });
      total += c.files;
    }
  }
  writeFileSync(marker, String(total));
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

function bench(label, root) {
  const db = join(tmpdir(), `bench-map-${label.replace(/\W+/g, '_')}.db`);
  const started = Date.now();
  const indexed = JSON.parse(execFileSync(process.execPath, [cli, 'index', '--root', root, '--db', db, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  const indexSeconds = (Date.now() - started) / 1000;
  const engine = [];
  const wall = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const out = execFileSync(process.execPath, [cli, 'map', '--root', root, '--db', db, '--json', '--max-tokens', maxTokens], { encoding: 'utf8', maxBuffer: 1 << 26 });
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    last = JSON.parse(out);
    engine.push(last.stats.elapsedMs);
  }
  const fmt = (xs) => `median ${(percentile(xs, 50) / 1000).toFixed(3)} s, p95 ${(percentile(xs, 95) / 1000).toFixed(3)} s`;
  console.log(`${label}: ${indexed.filesSeen} files, ${last.stats.definitions} definitions (index run ${indexSeconds.toFixed(1)} s, ${indexed.full ? 'full' : 'incremental'})`);
  console.log(`  map (engine: graph ${last.stats.graphMs} ms of it): ${fmt(engine)}`);
  console.log(`  map (CLI call, with process start and index load): ${fmt(wall)}`);
  console.log(`  ${last.tokens}/${last.maxTokens} tokens, ${last.files.length} files shown, ${runs} runs`);
}

bench(`largest dev repository (${sized[0].path.split('/').pop()})`, sized[0].path);
bench(`${readFileSync(marker, 'utf8').trim()}-source-file tree (${tree})`, tree);
