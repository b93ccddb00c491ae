// ask_oracle (no model) against get_context through one MCP server, same questions, interleaved so both see the same
// machine: the issue 18 bar is ask ≤ 2× context (medians). Build first: node esbuild.mjs cli worker.
//   node scripts/bench-ask-mcp.mjs DIR --db INDEX [--questions FILE.jsonl] [--limit 25] [--dist dist]
// The index is copied to a scratch folder first, so the one given is never written.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const { values: opt, positionals } = parseArgs({ allowPositionals: true, options: {
  db: { type: 'string' }, questions: { type: 'string' }, limit: { type: 'string', default: '25' }, dist: { type: 'string', default: 'dist' },
} });
const root = resolve(positionals[0] ?? '.');
const tmp = mkdtempSync(join(tmpdir(), 'co-bench-ask-mcp-'));
const db = join(tmp, 'index.db');
if (opt.db) copyFileSync(resolve(opt.db), db);
const questions = opt.questions
  ? readFileSync(opt.questions, 'utf8').trim().split('\n').map((l) => JSON.parse(l).question).slice(0, Number(opt.limit))
  : ['How does the router match a path with parameters?', 'What happens when no route matches?', 'How are errors handled?', 'Where are plugins registered?', 'How is the request body parsed?'];
const transport = new StdioClientTransport({ command: process.execPath, args: [...(process.env.PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROF_DIR] : []), resolve(opt.dist, 'cli.js'), 'mcp', '--root', root, '--db', db], stderr: 'ignore', env: { ...process.env, XDG_CACHE_HOME: join(tmp, 'cache') } });
const client = new Client({ name: 'bench-ask-mcp', version: '1' });
await client.connect(transport);
const time = async (name, args) => {
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join('')}`);
  return performance.now() - t0;
};
// One warm-up of each: the first call loads the index and the grammars.
await time('get_context', { question: questions[0] });
await time('ask_oracle', { question: questions[0] });
const ctx = [];
const ask = [];
for (const question of questions) {
  ctx.push(await time('get_context', { question }));
  ask.push(await time('ask_oracle', { question }));
}
await client.close();
rmSync(tmp, { recursive: true, force: true });
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
const f = (xs) => `p50 ${q(xs, 0.5).toFixed(0)} ms / p95 ${q(xs, 0.95).toFixed(0)} ms`;
console.log(`${questions.length} questions on ${root}`);
console.log(`get_context ${f(ctx)}`);
console.log(`ask_oracle  ${f(ask)}  (${(q(ask, 0.5) / q(ctx, 0.5)).toFixed(1)}× at p50)`);
