/**
 * Scale benchmark (issue 9). Two processes, so each peak RSS means one thing:
 * - the indexer (this process): universal-ctags `ctags -R` on the same tree as the reference, a full index, a
 *   no-change re-index; its peak RSS is the indexing peak (parse workers included);
 * - the server (a child, like a long-running host: language server, MCP server): opens the persisted index, commits
 *   one changed file at a time (queued, synced, then found by search), answers questions with smart context, draws
 *   the repo map; its peak RSS is what serving costs.
 * Built by `node esbuild.mjs bench` into out/bench/scale.js; run with `npm run bench:scale -- DIR`, or with a size
 * (`npm run bench:scale -- 100k`) for the corpus `scripts/build-scale-corpus.sh 100000 corpora/scale-100k` makes.
 * `--max-memory-mb N` sets the indexer's memory limit (EngineConfig.indexMemoryMb). Indexing progress goes to stderr,
 * and the indexing figures are printed as one JSON line as soon as indexing ends (a long run is readable part-way).
 * The one-file commits append to a corpus file, then restore its bytes and times and commit that, so the corpus and
 * a reused index end as they began; still, run it on a corpus of your own while others read theirs.
 * `--reuse-index DB` runs only the server part, in this process, on an index built before
 * (`context-oracle index --root DIR --db DB`): the serving figures in seconds rather than a minute, for profiling.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createNodeEngine } from '../../src/node/node-engine';
import { createStderrLogger } from '../../src/node/logger';
import { applyHostHeapPolicy } from '../../src/node/heap-policy';
import { median, ms, openServingEngine, p95 } from './serving';

const argv = process.argv.slice(2);
/** `--reuse-index DB` (for profiling) and `--serve DB` (the child the main run spawns) both serve an existing index. */
function flag(name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? resolve(argv.splice(at, 2)[1]!) : undefined;
}
const serveDb = flag('--reuse-index') ?? flag('--serve');
/** `--no-ctags`: skip the reference run (on a loaded machine ctags -R of 100k files alone takes many minutes). */
const noCtags = argv.includes('--no-ctags') && argv.splice(argv.indexOf('--no-ctags'), 1).length > 0;
const memoryAt = argv.indexOf('--max-memory-mb');
const indexMemoryMb = memoryAt >= 0 ? Number(argv.splice(memoryAt, 2)[1]) : undefined;
/** A size (`10k`, `100k`) names the corpus build-scale-corpus.sh makes for it; anything else is a folder. */
const dir = resolve(/^\d+k$/.test(argv[0] ?? '') ? `corpora/scale-${argv[0]}` : argv[0] ?? 'corpora/scale-10k');
const queries = ['how is the request routed to a handler', 'parse command line arguments', 'retry failed connection', 'serialize response to json', 'read configuration file', 'spawn a background task', 'render template with context', 'resolve dependency version'];

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

const mb = (bytes: number) => +(bytes / 1e6).toFixed(1);
/** CPU time (user + system, all threads) since `from`: on a shared machine wall time says more about the others. */
const cpuMs = (from: NodeJS.CpuUsage) => { const d = process.cpuUsage(from); return Math.round((d.user + d.system) / 1000); };
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** The child: a long-running host on an existing index. Prints one JSON line. */
async function serve(db: string): Promise<void> {
  // The serving child runs as our long-running hosts do (MCP server, language server).
  const { engine, openMs, warmMs, warmCpuMs } = await openServingEngine(dir, db);
  let t0: bigint;
  // Peak RSS so far after each step, so the serving peak can be laid at the step that set it.
  const peaks: Record<string, number> = {};
  const mark = (step: string): void => { peaks[step] = mb(peakRss()); };
  mark('warm');

  // One changed file: a function appended, queued, committed, then found. Afterwards the file gets its bytes and
  // times back and that is committed too, so the corpus (which other runs read) and a reused index end as they began.
  const probe = firstSource(dir)!;
  const original = readFileSync(join(dir, probe));
  const times = statSync(join(dir, probe));
  const commitMs: number[] = [];
  try {
    for (let i = 0; i < 7; i++) {
      const name = `benchProbeSymbol${Date.now()}x${i}`;
      appendFileSync(join(dir, probe), probe.endsWith('.py') ? `\n\ndef ${name}():\n    pass\n` : probe.endsWith('.go') ? `\n\nfunc ${name}() {}\n` : probe.endsWith('.rs') ? `\n\nfn ${name}() {}\n` : `\n\nexport function ${name}() {}\n`);
      t0 = process.hrtime.bigint();
      await engine.noteChanges([{ path: probe }]);
      await engine.syncNow();
      const hits = await engine.search(name, { limit: 1 });
      commitMs.push(ms(t0));
      if (hits[0]?.symbol !== name) console.error(`probe ${name} not found after commit`);
    }
  } finally {
    writeFileSync(join(dir, probe), original);
    utimesSync(join(dir, probe), times.atime, times.mtime);
  }
  await engine.noteChanges([{ path: probe }]);
  await engine.syncNow();
  mark('commits');
  t0 = process.hrtime.bigint();
  await engine.getContextForQuestion(queries[0]!, { maxTokens: 8000 });
  const afterCommitMs = ms(t0);

  const contextMs: number[] = [];
  const questionsCpu = process.cpuUsage();
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      t0 = process.hrtime.bigint();
      await engine.getContextForQuestion(q, { maxTokens: 8000 });
      contextMs.push(ms(t0));
    }
  }
  // Taken here: read at the end, it counted the map and the reopened engine too (~1.7 s "per question" at 100k).
  const questionsCpuMs = cpuMs(questionsCpu);
  mark('questions');
  // The first map after the commits builds its graph from the index; a new process on the same index then reads the
  // graph saved beside it (repomap/map-snapshot.ts), as a CLI `map` or a restarted server would.
  t0 = process.hrtime.bigint();
  let cpu = process.cpuUsage();
  const map = await engine.repoMap({ maxTokens: 1024 });
  const mapMs = ms(t0);
  const mapCpuMs = cpuMs(cpu);
  mark('map');
  const status = await engine.status();
  await engine.dispose();
  // A host opened right after the commits finds the facts and use table saved beside the index for an older version:
  // it patches them with the files changed since and saves them for this one. The next host, as a user's restarted
  // one, reads them back.
  const afterCommit = await openServingEngine(dir, db);
  await afterCommit.engine.dispose();
  mark('warmAfterCommits');
  const { engine: reopened, warmCpuMs: reopenedWarmCpuMs } = await openServingEngine(dir, db);
  t0 = process.hrtime.bigint();
  cpu = process.cpuUsage();
  const savedMap = await reopened.repoMap({ maxTokens: 1024 });
  const savedMapMs = ms(t0);
  const savedMapCpuMs = cpuMs(cpu);
  await reopened.dispose();
  mark('reopenedMap');
  if (savedMap.text !== map.text || !savedMap.stats.graphCached) console.error('the map read back differs from the one built, or was rebuilt');
  console.log(JSON.stringify({
    openMs: Math.round(openMs),
    warmMs: Math.round(warmMs),
    // Warm-up CPU of the first host, of one opened right after the commits, and of the next one (what was saved).
    warmCpuMs: { first: Math.round(warmCpuMs), afterCommits: Math.round(afterCommit.warmCpuMs), reopened: Math.round(reopenedWarmCpuMs) },
    oneFileQueryableAfterCommit: { medianMs: Math.round(median(commitMs)), runs: commitMs.map(Math.round) },
    firstContextAfterCommitMs: Math.round(afterCommitMs),
    questionToContext: { p50Ms: Math.round(median(contextMs)), p95Ms: Math.round(p95(contextMs)), n: contextMs.length, cpuMsPerQuestion: Math.round(questionsCpuMs / contextMs.length), runs: contextMs.map(Math.round) },
    repoMap: { builtMs: Math.round(mapMs), builtCpuMs: mapCpuMs, graphMs: map.stats.graphMs, readBackMs: Math.round(savedMapMs), readBackCpuMs: savedMapCpuMs },
    journalKb: Math.round((existsSync(`${db}.journal`) ? statSync(`${db}.journal`).size : 0) / 1e3),
    peakRssMb: mb(peakRss()),
    peakRssMbAfter: peaks,
    symbols: status.symbols, chunks: status.chunks, references: status.references,
  }));
}

async function main(): Promise<void> {
  // The indexer runs as our hosts do, too (the CLI sets this before indexing).
  applyHostHeapPolicy();
  const scratch = mkdtempSync(join(tmpdir(), 'co-scale-'));
  const db = join(scratch, 'index.db');
  try {
    const t = process.hrtime.bigint();
    const ctags = noCtags ? undefined : spawnSync('ctags', ['-R', '-f', join(scratch, 'tags'), dir], { encoding: 'utf8' });
    const ctagsMs = ctags ? ms(t) : NaN;
    if (ctags && ctags.status !== 0) console.error('ctags failed', ctags.stderr);

    const engine = createNodeEngine({ root: dir, indexPath: db, logger: createStderrLogger('warn'), assetRoot: resolve('dist'),
      ...(indexMemoryMb !== undefined ? { config: { indexMemoryMb } } : {}) });
    let t0 = process.hrtime.bigint();
    let shown = 0;
    const full = await engine.index({ full: true, onProgress: (p) => {
      const at = Math.round(ms(t0) / 10_000);
      if (at > shown || p.phase !== 'parsing') {
        shown = at;
        console.error(`${Math.round(ms(t0) / 1000)} s: ${p.phase} ${p.done}/${p.total}, rss ${mb(process.memoryUsage.rss())} MB`);
      }
    } });
    const fullMs = ms(t0);
    console.error(JSON.stringify({ fullIndexMs: Math.round(fullMs), files: full.filesSeen, parsed: full.parsed, reused: full.reused, imageMb: mb(statSync(db).size),
      peakRssMb: mb(peakRss()), batches: full.batches, memoryLimited: full.memoryLimited ?? null }));
    const imageMb = mb(statSync(db).size);
    t0 = process.hrtime.bigint();
    const noChange = await engine.index();
    const noChangeMs = ms(t0);
    await engine.dispose();
    const indexingRss = peakRss();

    const child = spawnSync(process.execPath, [process.argv[1]!, '--serve', db, dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`serving child failed (${child.status})`);
    const served = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    console.log(JSON.stringify({
      dir, files: full.filesSeen, parsed: full.parsed, reused: full.reused, bytesParsed: full.bytesParsed, loadavg: (await import('node:os')).loadavg().map((x) => +x.toFixed(1)),
      ctags: ctags ? { ms: Math.round(ctagsMs) } : 'skipped (--no-ctags)',
      fullIndex: { ms: Math.round(fullMs), ratioToCtags: +(fullMs / ctagsMs).toFixed(2), filesPerSec: Math.round(full.parsed / (fullMs / 1000)),
        batches: full.batches, memoryLimited: full.memoryLimited ?? null },
      noChangeReindex: { ms: Math.round(noChangeMs), parsed: noChange.parsed },
      indexImageMb: imageMb,
      indexingPeakRssMb: mb(indexingRss),
      serving: served,
    }, null, 2));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

void (serveDb ? serve(serveDb) : main()).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
