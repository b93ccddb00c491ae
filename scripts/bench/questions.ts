/**
 * Question latency, cold and warm (issue 9): a long-running host on an existing index answers a pool of distinct
 * questions once each (every answer is a first ask, as a user's questions are), then asks the same pool again.
 * Built by `node esbuild.mjs bench` into out/bench/questions.js; run with `npm run bench:questions -- DB DIR` on an
 * index built by `context-oracle index --root DIR --db DB`.
 * The reference, measured in the same run: GNU grep listing the files that hold any of a question's words (what an
 * agent without an index does), median over the first REFERENCE_QUESTIONS questions.
 * `--dump FILE` writes every answer's files and nodes with their scores, to check that a speed-up changed nothing.
 * `--profile FILE` writes a V8 CPU profile of the first asks only (not the open and warm-up), for `--cpu-prof`-style
 * reading of where a question's time goes. `--only TEXT` asks only the pool's questions holding TEXT (to profile the
 * slowest ones alone). `--ready` stops after the first answer and prints only what a host just opened pays (open,
 * warm-up, first answer): to measure a warm-up, e.g. after a commit, without asking the pool or running grep.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { cpuMs, median, ms, openServingEngine, p95 } from './serving';

const POOL = [
  'how is the request routed to a handler', 'parse command line arguments', 'retry failed connection', 'serialize response to json',
  'read configuration file', 'spawn a background task', 'render template with context', 'resolve dependency version',
  'where are environment variables loaded', 'how does authentication check the token', 'open a database connection pool',
  'write log messages to a file', 'compress data with gzip', 'validate user input form', 'handle http errors and status codes',
  'cache results in memory with expiry', 'watch files for changes', 'schedule a timer callback', 'hash a password securely',
  'upload a file with multipart', 'stream a large response body', 'convert timestamp to local time zone', 'parse yaml document',
  'register a plugin hook', 'emit an event to listeners', 'cancel a running request', 'limit the rate of requests',
  'build the url from path parameters', 'decode base64 string', 'merge two dictionaries deeply', 'walk a directory recursively',
  'format a number as currency', 'generate a random identifier', 'close the socket on shutdown', 'lock a mutex around shared state',
  'print a progress bar', 'diff two text files', 'load a module dynamically', 'send an email notification', 'query rows with pagination',
];
const REFERENCE_QUESTIONS = 8;
const STOP = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'on', 'is', 'how', 'does', 'where', 'are', 'with', 'for', 'and', 'two', 'from']);

/** `grep -rlIi` for the question's words in `dir`, in ms (null when grep is missing). */
function grepMs(dir: string, question: string): number | null {
  const words = question.split(/\s+/).filter((w) => !STOP.has(w));
  const t0 = process.hrtime.bigint();
  const r = spawnSync('grep', ['-rlIi', ...words.flatMap((w) => ['-e', w]), dir], { stdio: ['ignore', 'ignore', 'ignore'] });
  return r.error ? null : ms(t0);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dump');
  const dump = at >= 0 ? resolve(args.splice(at, 2)[1]!) : undefined;
  const pAt = args.indexOf('--profile');
  const profile = pAt >= 0 ? resolve(args.splice(pAt, 2)[1]!) : undefined;
  const oAt = args.indexOf('--only');
  const only = oAt >= 0 ? args.splice(oAt, 2)[1]! : undefined;
  const pool = only === undefined ? POOL : POOL.filter((q) => q.includes(only));
  const rAt = args.indexOf('--ready');
  const readyOnly = rAt >= 0 && args.splice(rAt, 1).length > 0;
  const [db, dir] = args.map((a) => resolve(a));
  if (!db || !dir) throw new Error('usage: questions.js DB DIR');
  const { engine, openMs, warmMs, openCpuMs, warmCpuMs, memory } = await openServingEngine(dir, db);
  // One question outside the pool warms what is left (prepared statements, compiled code).
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  await engine.getContextForQuestion('what does this project do', { maxTokens: 8000 });
  const firstMs = ms(t0);
  const firstCpuMs = cpuMs(c0);
  // What a user's first question waits for on a host that just opened the index: open, warm-up and the answer.
  const ready = {
    openMs: Math.round(openMs), warmMs: Math.round(warmMs), firstQuestionMs: Math.round(firstMs),
    cpu: { openMs: Math.round(openCpuMs), warmMs: Math.round(warmCpuMs), firstQuestionMs: Math.round(firstCpuMs), readyMs: Math.round(openCpuMs + warmCpuMs + firstCpuMs) },
    firstAnswerMs: Math.round(openMs + warmMs + firstMs),
    memoryAfterWarmMB: memory,
  };
  if (readyOnly) {
    await engine.dispose();
    console.log(JSON.stringify({ ...ready, loadavg: loadavg().map((x) => +x.toFixed(1)) }));
    return;
  }
  const cold: number[] = [];
  const warm: number[] = [];
  // CPU time per question (this process, all threads): on a shared machine the wall time also counts waiting for a
  // core, so the two together tell a slow answer from a busy machine.
  const coldCpu: number[] = [];
  const warmCpu: number[] = [];
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const slow: string[] = [];
  const answers: unknown[] = [];
  for (const pass of [cold, warm]) {
    for (const q of pool) {
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const answer = await engine.getContextForQuestion(q, { maxTokens: 8000 });
      const t = ms(t0);
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1000;
      (pass === cold ? coldCpu : warmCpu).push(cpu);
      if (pass === cold) answers.push({ q, files: answer.files, nodes: answer.nodes.map((n) => [n.id, n.score, n.tokens]), tokens: answer.tokenCount, text: answer.text });
      pass.push(t);
      // Slow by either clock, with both: under load the wall time alone flags the machine rather than the question.
      if (pass === cold && Math.max(t, cpu) > 150) slow.push(`${Math.round(t)} ms wall, ${Math.round(cpu)} CPU-ms: ${q}`);
    }
    if (pass === cold && session) {
      const { profile: taken } = await session.post('Profiler.stop');
      writeFileSync(profile!, JSON.stringify(taken));
      session.disconnect();
    }
  }
  await engine.dispose();
  const grep = POOL.slice(0, REFERENCE_QUESTIONS).map((q) => grepMs(dir, q));
  const grepMedian = grep.every((x) => x !== null) ? median(grep as number[]) : null;
  if (dump) writeFileSync(dump, `${JSON.stringify(answers, null, 1)}\n`);
  console.log(JSON.stringify({
    ...ready,
    cold: { p50Ms: Math.round(median(cold)), p95Ms: Math.round(p95(cold)), maxMs: Math.round(Math.max(...cold)), n: cold.length, cpuP50Ms: Math.round(median(coldCpu)), cpuP95Ms: Math.round(p95(coldCpu)) },
    loadavg: loadavg().map((x) => +x.toFixed(1)),
    warm: { p50Ms: Math.round(median(warm)), p95Ms: Math.round(p95(warm)), n: warm.length, cpuP50Ms: Math.round(median(warmCpu)), cpuP95Ms: Math.round(p95(warmCpu)) },
    reference: grepMedian === null
      ? 'grep not found'
      : { grepFilesMedianMs: Math.round(grepMedian), coldP50Ratio: +(median(cold) / grepMedian).toFixed(3), coldP95Ratio: +(p95(cold) / grepMedian).toFixed(3) },
    slow,
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });
