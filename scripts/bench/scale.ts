/**
 * Scale benchmark (issue 9), in one process like a long-running host (language server, MCP server):
 * full index, one changed file → queryable after the commit, question → context latency, repo map, index file size
 * and peak RSS; universal-ctags `ctags -R` on the same tree in the same run as the reference.
 * Built by `node esbuild.mjs bench` into out/bench/scale.js; run with `npm run bench:scale -- DIR`.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createNodeEngine } from '../../src/node/node-engine';
import { createStderrLogger } from '../../src/node/logger';

const dir = resolve(process.argv[2] ?? 'corpora/scale-10k');
const queries = ['how is the request routed to a handler', 'parse command line arguments', 'retry failed connection', 'serialize response to json', 'read configuration file', 'spawn a background task', 'render template with context', 'resolve dependency version'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

function firstSource(root: string): string | undefined {
  const stack = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') stack.push(p);
      else if (e.isFile() && /\.(ts|py|go|rs)$/.test(e.name) && !/test/i.test(p)) return p;
    }
  }
  return undefined;
}

(async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'co-scale-'));
  const db = join(scratch, 'index.db');
  const t = process.hrtime.bigint();
  const ctags = spawnSync('ctags', ['-R', '-f', join(scratch, 'tags'), dir], { encoding: 'utf8' });
  const ctagsMs = ms(t);
  if (ctags.status !== 0) console.error('ctags failed', ctags.stderr);

  const engine = createNodeEngine({ root: dir, indexPath: db, logger: createStderrLogger('warn'), assetRoot: resolve('dist') });
  let t0 = process.hrtime.bigint();
  const full = await engine.index({ full: true });
  const fullMs = ms(t0);
  const rssAfterIndex = process.resourceUsage().maxRSS * 1024;

  t0 = process.hrtime.bigint();
  const noChange = await engine.index();
  const noChangeMs = ms(t0);

  // One changed file: appended function, queued, committed, then found.
  const probe = firstSource(dir)!;
  const commitMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const name = `benchProbeSymbol${Date.now()}x${i}`;
    appendFileSync(join(dir, probe), probe.endsWith('.py') ? `\n\ndef ${name}():\n    pass\n` : probe.endsWith('.go') ? `\n\nfunc ${name}() {}\n` : probe.endsWith('.rs') ? `\n\nfn ${name}() {}\n` : `\n\nexport function ${name}() {}\n`);
    t0 = process.hrtime.bigint();
    await engine.noteChanges([{ path: probe }]);
    await engine.syncNow();
    const hits = await engine.search(name, { limit: 1 });
    commitMs.push(ms(t0));
    if (hits[0]?.symbol !== name) console.error(`probe ${name} not found after commit`);
  }

  const contextMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      t0 = process.hrtime.bigint();
      await engine.getContextForQuestion(q, { maxTokens: 8000 });
      contextMs.push(ms(t0));
    }
  }
  t0 = process.hrtime.bigint();
  await engine.repoMap({ maxTokens: 1024 });
  const mapMs = ms(t0);
  const status = await engine.status();
  await engine.dispose();
  const out = {
    dir, files: full.filesSeen, parsed: full.parsed, bytesParsed: full.bytesParsed, loadavg: (await import('node:os')).loadavg().map((x) => +x.toFixed(1)),
    ctags: { ms: Math.round(ctagsMs) },
    fullIndex: { ms: Math.round(fullMs), ratioToCtags: +(fullMs / ctagsMs).toFixed(1), filesPerSec: Math.round(full.parsed / (fullMs / 1000)) },
    noChangeReindex: { ms: Math.round(noChangeMs), parsed: noChange.parsed },
    oneFileQueryableAfterCommit: { medianMs: Math.round(median(commitMs)), runs: commitMs.map(Math.round) },
    questionToContext: { p50Ms: Math.round(median(contextMs)), p95Ms: Math.round(p95(contextMs)), n: contextMs.length },
    repoMapMs: Math.round(mapMs),
    indexFileMb: +(statSync(db).size / 1e6).toFixed(1),
    peakRssMb: { afterFullIndex: Math.round(rssAfterIndex / 1e6), overall: Math.round(process.resourceUsage().maxRSS * 1024 / 1e6) },
    symbols: status.symbols, chunks: status.chunks,
  };
  console.log(JSON.stringify(out, null, 2));
  rmSync(scratch, { recursive: true, force: true });
})();
