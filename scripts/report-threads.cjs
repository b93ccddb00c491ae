// Preload for measuring where an index run's CPU goes, thread by thread (Linux only: it reads /proc):
//   node -r ./scripts/report-threads.cjs dist/cli.js index --full --root DIR --db FILE --json
// prints on exit, to stderr, `BENCH_THREADS_MS=` the CPU time (user + system, ms) of every thread that used 20 ms or
// more, largest first: the main thread, the parse workers and V8's background threads (compiles, collector) all
// show as `node`, so they are told apart by size (two workers of ~1 s beside background threads of ~0.2 s on hono).
// process.resourceUsage() (report-rss.cjs) gives only their sum. Threads are sampled every 25 ms, as the parse
// workers have ended by the time the process exits; a worker's last 25 ms may go uncounted.
const { readdirSync, readFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

if (isMainThread) {
  const cpuMs = new Map();
  const sample = () => {
    let tids;
    try {
      tids = readdirSync('/proc/self/task');
    } catch {
      return; // not Linux
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (10 ms).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpuMs.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // the thread ended between the listing and the read
      }
    }
  };
  setInterval(sample, 25).unref();
  process.on('exit', () => {
    sample();
    const main = cpuMs.get(String(process.pid)) ?? 0;
    const others = [...cpuMs].filter(([tid, ms]) => tid !== String(process.pid) && ms >= 20).map(([, ms]) => ms).sort((a, b) => b - a);
    const u = process.resourceUsage();
    process.stderr.write(`\nBENCH_THREADS_MS=main:${main} others:${others.join(',')} process:${Math.round((u.userCPUTime + u.systemCPUTime) / 1000)}\n`);
  });
}
