// Preloaded by the benchmarks (`node -r ./scripts/report-rss.cjs ...`): prints the process's peak RSS on exit.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
