// Preloaded by the benchmarks (`node -r ./scripts/report-rss.cjs ...`): prints the process's peak RSS and the CPU
// time it used (user + system, worker threads included) on exit. On a machine shared with other work the CPU time is
// the figure load does not inflate.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${u.maxRSS}\nBENCH_CPU_US=${u.userCPUTime + u.systemCPUTime}\n`);
});
