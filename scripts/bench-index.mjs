// npm run bench:index -- DIR [--runs N]
// Full index, no-change re-index and one-file-changed re-index of DIR with the built CLI, against universal-ctags'
// `ctags -R` and, when installed, `@optave/codegraph` (a native tree-sitter code-graph indexer) on the same tree in
// the same run, runs interleaved so load from other processes falls on all three alike. Prints medians, ratios and
// the load average. With out/bench/parse-floor.js built (`npm run bench:index` builds it), also the parser's floor on the
// same files: web-tree-sitter alone, parsing and querying them in one thread, which no full index can undercut. Never
// used as a CI gate. codegraph is found in .cache/bench (kept out of our dependencies):
//   npm install --prefix .cache/bench --no-audit --no-fund @optave/codegraph@3.11.2
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const cli = resolve('dist/cli.js');
const preload = resolve('scripts/report-rss.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'co-bench-'));
const db = join(scratch, 'index.db');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
function timed(cmd, argv, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const rss = Number(/BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr ?? '')?.[1] ?? 0) * 1024;
  // CPU seconds: from the preload for node processes, from GNU time for ctags.
  const cpu = /BENCH_CPU_US=(\d+)/.exec(r.stderr ?? '') ? Number(/BENCH_CPU_US=(\d+)/.exec(r.stderr)[1]) / 1e6
    : /BENCH_CPU_S=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '') ? Number(RegExp.$1) + Number(RegExp.$2) : undefined;
  return { ms, rss, cpu, stdout: r.stdout };
}
function index(extra = []) {
  return timed(process.execPath, ['-r', preload, cli, 'index', '--root', dir, '--db', db, '--json', ...extra]);
}

const ctagsVersion = spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? 'ctags missing';
const codegraphBin = resolve('.cache/bench/node_modules/@optave/codegraph/dist/cli.js');
const codegraphVersion = existsSync(codegraphBin)
  ? JSON.parse(readFileSync(resolve('.cache/bench/node_modules/@optave/codegraph/package.json'), 'utf8')).version : undefined;
// codegraph is pointed at a copy (it keeps a folder of its own in the tree it indexes); its database goes to scratch.
const copy = join(scratch, 'tree');
cpSync(dir, copy, { recursive: true, filter: (p) => !p.includes('/.git/') && !p.endsWith('/.git') && !p.includes('/node_modules/') });
const codegraphDb = join(scratch, 'codegraph.db');
const codegraph = (extra) => timed(process.execPath, ['-r', preload, codegraphBin, 'build', copy, '--db', codegraphDb, ...extra]);

const load = [loadavg()[0]];
const ctags = [];
const full = [];
const codegraphFull = [];
let last;
for (let i = 0; i < runs; i++) {
  ctags.push(existsSync('/usr/bin/time')
    ? timed('/usr/bin/time', ['-f', 'BENCH_CPU_S=%U+%S', 'ctags', '-R', '-f', join(scratch, 'tags'), dir])
    : timed('ctags', ['-R', '-f', join(scratch, 'tags'), dir]));
  rmSync(db, { force: true });
  last = index(['--full']);
  full.push(last);
  if (codegraphVersion) {
    rmSync(codegraphDb, { force: true });
    codegraphFull.push(codegraph(['--no-incremental']));
  }
}
const report = JSON.parse(last.stdout);
const noChange = [];
const codegraphNoChange = [];
for (let i = 0; i < runs; i++) {
  noChange.push(index());
  if (codegraphVersion) codegraphNoChange.push(codegraph([]).ms);
}
load.push(loadavg()[0]);

// One file changed, in the copy, so the benchmark never edits the user's files.
const copyDb = join(scratch, 'copy.db');
timed(process.execPath, [cli, 'index', '--root', copy, '--db', copyDb]);
// A tracked source file, or (a tree that is not a git checkout) the first one a walk finds.
const sourceFile = (f) => /\.(ts|js|py|go|rs)$/.test(f) && !f.includes('node_modules/');
const probe = spawnSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).stdout?.split('\n').find(sourceFile)
  ?? readdirSync(copy, { recursive: true }).map(String).find(sourceFile);
const oneChanged = [];
if (probe) {
  for (let i = 0; i < runs; i++) {
    appendFileSync(join(copy, probe), `\n// bench edit ${i}\n`);
    oneChanged.push(timed(process.execPath, [cli, 'index', '--root', copy, '--db', copyDb]).ms);
  }
}

// The parser's floor, on the files the last full index holds (scripts/bench/parse-floor.ts).
const floorScript = resolve('out/bench/parse-floor.js');
const floor = existsSync(floorScript) ? JSON.parse(timed(process.execPath, [floorScript, db, dir, '--rounds', '1', '--json']).stdout) : undefined;

const fullMs = median(full.map((r) => r.ms));
const ctagsMs = median(ctags.map((r) => r.ms));
const cpuOf = (rs) => (rs.every((r) => r.cpu !== undefined) ? +median(rs.map((r) => r.cpu)).toFixed(2) : undefined);
const bytes = report.bytesParsed;
const out = {
  dir,
  files: report.filesSeen,
  parsed: report.parsed,
  reused: report.reused,
  bytes,
  runs,
  ctags: { version: ctagsVersion, medianMs: Math.round(ctagsMs), medianCpuS: cpuOf(ctags) },
  fullIndex: {
    medianMs: Math.round(fullMs),
    filesPerSec: Math.round(report.parsed / (fullMs / 1000)),
    mbPerSec: +(bytes / 1e6 / (fullMs / 1000)).toFixed(2),
    peakRssMb: Math.round(Math.max(...full.map((r) => r.rss)) / 1e6),
    ratioToCtags: +(fullMs / ctagsMs).toFixed(2),
    medianCpuS: cpuOf(full),
    cpuRatioToCtags: cpuOf(ctags) ? +(cpuOf(full) / cpuOf(ctags)).toFixed(2) : undefined,
    ...(codegraphVersion ? { cpuRatioToCodegraph: +(cpuOf(full) / cpuOf(codegraphFull)).toFixed(2) } : {}),
    ...(codegraphVersion ? { ratioToCodegraph: +(fullMs / median(codegraphFull.map((r) => r.ms))).toFixed(2) } : {}),
  },
  codegraph: codegraphVersion ? {
    version: codegraphVersion,
    fullMedianMs: Math.round(median(codegraphFull.map((r) => r.ms))),
    fullMedianCpuS: cpuOf(codegraphFull),
    peakRssMb: Math.round(Math.max(...codegraphFull.map((r) => r.rss)) / 1e6),
    noChangeMedianMs: Math.round(median(codegraphNoChange)),
    indexBytes: statSync(codegraphDb).size,
  } : 'not installed (npm install --prefix .cache/bench @optave/codegraph@3.11.2)',
  parserFloor: floor ? {
    oneThreadCpuS: +(floor.setupCpuS + floor.round1ParseQueryCpuS).toFixed(2),
    ...floor,
    fullIndexCpuOverFloor: +(cpuOf(full) / (floor.setupCpuS + floor.round1ParseQueryCpuS)).toFixed(2),
  } : 'not built (node esbuild.mjs bench)',
  noChangeReindex: { medianMs: Math.round(median(noChange.map((r) => r.ms))), medianCpuS: cpuOf(noChange), ratioToFull: +(median(noChange.map((r) => r.ms)) / fullMs).toFixed(3) },
  oneFileChanged: oneChanged.length ? { file: probe, medianMs: Math.round(median(oneChanged)) } : 'no tracked source file to edit',
  indexBytes: statSync(db).size,
  skips: report.skipCounts,
  loadAverage: { start: +load[0].toFixed(2), end: +load[1].toFixed(2), cores: availableParallelism() },
};
console.log(JSON.stringify(out, null, 2));
rmSync(scratch, { recursive: true, force: true });

