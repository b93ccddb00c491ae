// npm run bench:concurrency -- DIR
// Ten concurrent CLI queries (def, refs, search), idle and while a full re-index of the same workspace runs in
// another process: every answer must be correct (same as idle), and the latencies are compared (median, p95).
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? '.');
const cli = resolve('dist/cli.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

function run(args) {
  return new Promise((resolveRun) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args, '--root', dir, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => resolveRun({ code, out, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
  });
}

spawnSync(process.execPath, [cli, 'index', '--root', dir], { stdio: 'ignore' });
const status = JSON.parse(spawnSync(process.execPath, [cli, 'status', '--root', dir, '--json'], { encoding: 'utf8' }).stdout);
// Ten symbols of the workspace to ask about: the first definitions search finds.
const search = JSON.parse(spawnSync(process.execPath, [cli, 'search', 'function', '--root', dir, '--json', '--limit', '40', '--kind', 'function'], { encoding: 'utf8' }).stdout);
const names = [...new Set(search.results.map((h) => h.symbol?.split('.').pop()).filter(Boolean))].slice(0, 10);
const calls = names.map((n, i) => (i % 2 ? ['refs', n, '--limit', '5'] : ['def', n, '--limit', '3']));

async function round() {
  return Promise.all(calls.map(run));
}
const idle = [];
const idleAnswers = new Map();
for (let r = 0; r < 3; r++) for (const [i, res] of (await round()).entries()) { idle.push(res.ms); idleAnswers.set(i, res.out); }
const busy = [];
let wrong = 0;
for (let r = 0; r < 3; r++) {
  const writer = run(['index', '--full']);
  await new Promise((w) => setTimeout(w, 150));
  for (const [i, res] of (await round()).entries()) {
    busy.push(res.ms);
    if (res.code !== 0 || res.out !== idleAnswers.get(i)) wrong++;
  }
  await writer;
}
console.log(JSON.stringify({
  dir, files: status.files, queries: calls.map((c) => c.slice(0, 2).join(' ')),
  idle: { medianMs: Math.round(median(idle)), p95Ms: Math.round(p95(idle)), n: idle.length },
  whileIndexing: { medianMs: Math.round(median(busy)), p95Ms: Math.round(p95(busy)), n: busy.length, wrongOrFailed: wrong },
  p95Ratio: +(p95(busy) / p95(idle)).toFixed(2),
}, null, 2));
