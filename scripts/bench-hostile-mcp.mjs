// Hostile but well-formed MCP calls against the built server (issue 15), through the SDK's own client over stdio:
// for each case a fresh server on a copy of test/fixtures/mcp answers one warm-up call, then gets the hostile call
// and, 100 ms later, an index_status. Reports the wall time of both, the answer's size in tokens and its code.
// A case that does not answer within --timeout (default 30 s) is reported as a hang and its server is killed.
// usage: npm run bench:hostile -- [--timeout MS] [--only NAME] [--copy DIR]   (builds first)
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer';

const args = process.argv.slice(2);
const timeout = Number(args[args.indexOf('--timeout') + 1] ?? 30_000) || 30_000;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const words = 'session store login route handler token cache request response parse config file'.split(' ');
const cases = [
  { name: '150-word query, max_tokens 200', tool: 'search_code', args: { query: Array.from({ length: 150 }, (_, i) => words[i % words.length]).join(' '), max_tokens: 200 } },
  { name: '80 KB identifier query', tool: 'search_code', args: { query: 'a'.repeat(80 * 1024) } },
  { name: '80 KB identifier question', tool: 'get_context', args: { question: `where is ${'x'.repeat(80 * 1024)} used?` } },
  { name: '10 MB question', tool: 'get_context', args: { question: 'how does login work '.repeat(500_000) } },
  { name: '10 MiB question (over what the SDK reads)', tool: 'get_context', args: { question: 'q'.repeat(10 * 1024 * 1024) } },
  { name: '400 KB path', tool: 'search_code', args: { query: 'route', path: 'p'.repeat(400 * 1024) } },
  { name: 'question at the 8,000-character limit', tool: 'get_context', args: { question: Array.from({ length: 1_000 }, (_, i) => words[i % words.length]).join(' ').slice(0, 8_000) } },
  { name: 'ask_oracle question at the 4,000-character limit', tool: 'ask_oracle', args: { question: Array.from({ length: 1_000 }, (_, i) => words[i % words.length]).join(' ').slice(0, 4_000) } },
  { name: 'query at the 2,000-character limit', tool: 'search_code', args: { query: Array.from({ length: 300 }, (_, i) => words[i % words.length]).join(' ').slice(0, 2_000) } },
  { name: 'index_status max_tokens 200', tool: 'index_status', args: { max_tokens: 200 } },
  { name: 'get_context max_tokens 200', tool: 'get_context', args: { question: 'how does login open a session?', max_tokens: 200 } },
].filter((c) => !only || c.name.includes(only));

// --copy DIR: a copy of DIR instead of the fixture (a bigger workspace, for the cases at the limits).
const copyOf = args.includes('--copy') ? resolve(args[args.indexOf('--copy') + 1]) : undefined;

function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'co-hostile-'));
  if (copyOf) {
    cpSync(copyOf, join(root, 'src'), { recursive: true });
    return root;
  }
  cpSync(resolve('test/fixtures/mcp'), root, { recursive: true });
  renameSync(join(root, 'dot-context-oracle'), join(root, '.context-oracle'));
  return root;
}

async function timed(promise) {
  const t0 = performance.now();
  try {
    const r = await promise;
    const text = r.content.map((c) => c.text).join('');
    let code = 'ok';
    if (r.isError) code = JSON.parse(r.content[0].text).code;
    return { ms: performance.now() - t0, tokens: countTokens(text), code, head: text.slice(0, 160) };
  } catch (e) {
    return { ms: performance.now() - t0, tokens: 0, code: /timed out/i.test(String(e)) ? 'HANG' : 'rpc-error', head: String(e).slice(0, 160) };
  }
}

const fmt = (r) => `${r.code.padEnd(13)} ${r.ms.toFixed(0).padStart(6)} ms ${String(r.tokens).padStart(7)} tokens  ${r.head.replace(/\s+/g, ' ').slice(0, 100)}`;

for (const c of cases) {
  const root = workspace();
  const transport = new StdioClientTransport({ command: process.execPath, args: [resolve('dist/cli.js'), 'mcp', '--root', root], stderr: process.env.BENCH_STDERR ? 'inherit' : 'ignore' });
  const client = new Client({ name: 'bench-hostile-mcp', version: '1' });
  await client.connect(transport);
  try {
    await client.callTool({ name: 'search_code', arguments: { query: 'route' } }, undefined, { timeout: 120_000 });
    const hostile = timed(client.callTool({ name: c.tool, arguments: c.args }, undefined, { timeout }));
    await new Promise((r) => setTimeout(r, 100));
    const status = timed(client.callTool({ name: 'index_status', arguments: {} }, undefined, { timeout }));
    const [h, s] = await Promise.all([hostile, status]);
    console.log(`${c.name}\n  ${c.tool.padEnd(13)} ${fmt(h)}\n  index_status  ${fmt(s)}`);
  } finally {
    // A hung server does not read stdin any more: kill it rather than wait for it to exit.
    const pid = transport.pid;
    await Promise.race([client.close(), new Promise((r) => setTimeout(r, 2_000))]);
    if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    rmSync(root, { recursive: true, force: true });
  }
}
