// npm run bench:index -- DIR [--runs N]
// Full index, no-change re-index and one-file-changed re-index of DIR with the built CLI, against universal-ctags'
// `ctags -R` on the same tree in the same run. Prints medians and ratios. Never used as a CI gate.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  return { ms, rss, stdout: r.stdout };
}
function index(extra = []) {
  return timed(process.execPath, ['-r', preload, cli, 'index', '--root', dir, '--db', db, '--json', ...extra]);
}

const ctagsVersion = spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? 'ctags missing';
const ctags = [];
for (let i = 0; i < runs; i++) ctags.push(timed('ctags', ['-R', '-f', join(scratch, 'tags'), dir]).ms);

const full = [];
let last;
for (let i = 0; i < runs; i++) {
  rmSync(db, { force: true });
  last = index(['--full']);
  full.push(last);
}
const report = JSON.parse(last.stdout);
const noChange = [];
for (let i = 0; i < runs; i++) noChange.push(index().ms);

// One file changed: copy the tree so the benchmark never edits the user's files.
const copy = join(scratch, 'tree');
cpSync(dir, copy, { recursive: true, filter: (p) => !p.includes('/.git/') && !p.endsWith('/.git') && !p.includes('/node_modules/') });
const copyDb = join(scratch, 'copy.db');
timed(process.execPath, [cli, 'index', '--root', copy, '--db', copyDb]);
const probe = spawnSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).stdout?.split('\n').find((f) => /\.(ts|js|py|go|rs)$/.test(f));
const oneChanged = [];
if (probe) {
  for (let i = 0; i < runs; i++) {
    appendFileSync(join(copy, probe), `\n// bench edit ${i}\n`);
    oneChanged.push(timed(process.execPath, [cli, 'index', '--root', copy, '--db', copyDb]).ms);
  }
}

const fullMs = median(full.map((r) => r.ms));
const ctagsMs = median(ctags);
const bytes = report.bytesParsed;
const out = {
  dir,
  files: report.filesSeen,
  parsed: report.parsed,
  bytes,
  runs,
  ctags: { version: ctagsVersion, medianMs: Math.round(ctagsMs) },
  fullIndex: {
    medianMs: Math.round(fullMs),
    filesPerSec: Math.round(report.parsed / (fullMs / 1000)),
    mbPerSec: +(bytes / 1e6 / (fullMs / 1000)).toFixed(2),
    peakRssMb: Math.round(Math.max(...full.map((r) => r.rss)) / 1e6),
    ratioToCtags: +(fullMs / ctagsMs).toFixed(2),
  },
  noChangeReindex: { medianMs: Math.round(median(noChange)), ratioToFull: +(median(noChange) / fullMs).toFixed(3) },
  oneFileChanged: oneChanged.length ? { file: probe, medianMs: Math.round(median(oneChanged)) } : 'no tracked source file to edit',
  indexBytes: statSync(db).size,
  skips: report.skipCounts,
};
console.log(JSON.stringify(out, null, 2));
rmSync(scratch, { recursive: true, force: true });

