// MCP server over stdio with the SDK's own client, on a real repository:
//   cold start (no index: connect → first answer, the server indexes on its own),
//   first query on an existing index while the startup refresh runs (a fresh server per run),
//   warm calls per tool (median / p95 latency, answer tokens), ten concurrent calls.
// usage: node scripts/bench-mcp.mjs DIR [--runs N] [--db INDEX]     (build first: node esbuild.mjs cli worker)
//   --db: serve a copy of an index built before (`context-oracle index --root DIR --db INDEX`) and skip the cold
//   start: a large workspace then costs a copy, not a full index.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer';

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith('--'));
const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;
if (!root) {
  console.error('usage: node scripts/bench-mcp.mjs DIR [--runs N]');
  process.exit(2);
}
const prebuilt = args.includes('--db') ? resolve(args[args.indexOf('--db') + 1]) : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'co-bench-mcp-'));
const db = join(tmp, 'index.db');
if (prebuilt) copyFileSync(prebuilt, db);

async function connect() {
  const transport = new StdioClientTransport({ command: process.execPath, args: [resolve('dist/cli.js'), 'mcp', '--root', resolve(root), '--db', db], stderr: 'ignore' });
  const client = new Client({ name: 'bench-mcp', version: '1' });
  await client.connect(transport);
  return client;
}

async function call(client, name, a) {
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: a }, undefined, { timeout: 600_000 });
  const ms = performance.now() - t0;
  const text = r.content.map((c) => c.text).join('');
  if (r.isError) throw new Error(`${name} ${JSON.stringify(a)}: ${text}`);
  return { ms, tokens: countTokens(text), json: JSON.parse(r.content[0].text) };
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (n) => n.toFixed(1).padStart(8);

try {
  let t0 = performance.now();
  let client = await connect();
  const connectMs = performance.now() - t0;
  const first = await call(client, 'search_code', { query: 'error handling' });
  console.log(prebuilt
    ? `start on the given index: connect ${connectMs.toFixed(0)} ms, first answer after ${(performance.now() - t0).toFixed(0)} ms`
    : `cold start: connect ${connectMs.toFixed(0)} ms, first answer after ${(performance.now() - t0).toFixed(0)} ms (index built by the server)`);
  await client.close();

  // A restarted server refreshes its index in the background; the first query should not wait for that run.
  const firstMs = [];
  for (let i = 0; i < runs; i++) {
    const c = await connect();
    firstMs.push((await call(c, 'search_code', { query: 'error handling' })).ms);
    await c.close();
  }
  console.log(`first query on an existing index (startup refresh under way): median ${pct(firstMs, 0.5).toFixed(1)} ms, runs ${firstMs.map((m) => m.toFixed(0)).join(' ')}`);

  t0 = performance.now();
  client = await connect();
  const list = await client.listTools();
  console.log(`warm restart: connect ${(performance.now() - t0).toFixed(0)} ms; tools/list ${list.tools.length} tools, ${countTokens(JSON.stringify(list.tools))} tokens`);
  // Steady state: the per-tool figures are taken once the startup refresh is over.
  while ((await call(client, 'index_status', {})).json.indexing?.state === 'indexing') await new Promise((r) => setTimeout(r, 100));
  const hit = first.json.results.find((h) => h.symbol) ?? first.json.results[0];
  const symbol = hit?.symbol?.split('.').pop() ?? 'main';
  const file = hit?.path ?? '.';
  const cases = [
    ['search_code', { query: 'error handling' }],
    ['find_definition', { symbol }],
    ['find_references', { symbol }],
    ['get_repo_map', {}],
    ['get_context', { question: `how does ${symbol} handle errors?` }],
    ['why', { ref_id: file }],
    ['ask_oracle', { question: `how does ${symbol} handle errors?`, sources: ['code', 'docs'] }],
    ['index_status', {}],
  ];
  console.log(`${'tool'.padEnd(16)}${'median ms'.padStart(10)}${'p95 ms'.padStart(9)}${'tokens'.padStart(8)}   args`);
  for (const [name, a] of cases) {
    const times = [];
    let tokens = 0;
    for (let i = 0; i < runs; i++) {
      const r = await call(client, name, a);
      times.push(r.ms);
      tokens = r.tokens;
    }
    console.log(`${name.padEnd(16)}${fmt(pct(times, 0.5))}  ${fmt(pct(times, 0.95))}${String(tokens).padStart(8)}   ${JSON.stringify(a)}`);
  }
  const concurrent = [];
  for (let i = 0; i < runs; i++) {
    t0 = performance.now();
    await Promise.all([...cases.slice(0, 6), ...cases.slice(0, 4)].map(([name, a]) => call(client, name, a)));
    concurrent.push(performance.now() - t0);
  }
  console.log(`10 concurrent calls: median ${pct(concurrent, 0.5).toFixed(1)} ms, p95 ${pct(concurrent, 0.95).toFixed(1)} ms (wall time for all ten)`);
  await client.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
