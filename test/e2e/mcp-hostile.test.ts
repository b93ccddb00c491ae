/**
 * Hostile but well-formed calls to the built MCP server (issue 15): a long query at a small budget, huge arguments,
 * object progress tokens, `constructor` keys. Each must be answered (a normal answer or our JSON error body) before
 * HANG_MS, within the budget asked for, and must not hold up an index_status sent right after it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '../../src/core/tokens';
import { CLI } from '../helpers/cli';
import { fixtureWorkspaces, serve, type ErrorBody, type Served } from './mcp-harness';

const workspace = fixtureWorkspaces();
// A hang, or work that grows with the square of the input, takes minutes; a prompt answer takes well under a second
// on a quiet machine (bench:hostile measures it). 10 s tells the two apart on 2 cores shared with other work, where
// 2 s did not (load 40–50 made correct answers miss it): the tests catch hangs and stalls, the bench measures speed.
const HANG_MS = 10_000;
const WITHIN = { timeout: HANG_MS };
const words = 'session store login route handler token cache request response parse config file'.split(' ');
const longQuery = Array.from({ length: 150 }, (_, i) => words[i % words.length]).join(' ');

interface Answer {
  isError: boolean;
  json: Record<string, unknown>;
  tokens: number;
  ms: number;
}

/** One call that must be answered before HANG_MS (the SDK rejects it with a timeout otherwise). */
async function quick(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const started = performance.now();
  const raw = (await client.callTool({ name, arguments: args }, undefined, WITHIN)) as CallToolResult;
  const texts = raw.content.map((c) => (c.type === 'text' ? c.text : ''));
  return { isError: raw.isError === true, json: JSON.parse(texts[0] ?? 'null') as Record<string, unknown>, tokens: texts.reduce((n, t) => n + countTokens(t), 0), ms: performance.now() - started };
}

/** The hostile call, and 100 ms later an index_status: both must answer before HANG_MS. */
async function withStatus(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const hostile = quick(client, name, args);
  await new Promise((r) => setTimeout(r, 100));
  const [answer, status] = await Promise.all([hostile, quick(client, 'index_status', {})]);
  assert.equal(status.isError, false);
  assert.equal(status.json.exists, true);
  return answer;
}

/** A server on a fresh fixture copy, its index built; closed after the test file. */
async function indexedServer(): Promise<Served> {
  const served = await serve(workspace());
  const first = await served.client.callTool({ name: 'search_code', arguments: { query: 'route' } }, undefined, { timeout: 60_000 });
  assert.notEqual(first.isError, true);
  return served;
}

describe('MCP server under hostile calls', () => {
  let served: Served;
  before(async () => {
    served = await indexedServer();
  });
  after(async () => {
    await served?.close();
  });

  it('a 150-word search_code query at max_tokens=200 is answered within the budget, and index_status right after it', { timeout: 30_000 }, async () => {
    // Its own server: on the code before the fix this call never returned and pinned the server for good.
    const own = await indexedServer();
    try {
      const r = await withStatus(own.client, 'search_code', { query: longQuery, max_tokens: 200 });
      assert.ok(r.tokens <= 200, `${r.tokens} tokens`);
      if (r.isError) assert.match((r.json as unknown as ErrorBody).message, /`query`/);
      else assert.match(String(r.json.query), /^session store .*… \[cut \d+ chars\]/);
    } finally {
      await own.close();
    }
  });

  it('an 80 KB identifier as query is invalid_input naming its length and the limit, at once', { timeout: 30_000 }, async () => {
    const r = await withStatus(served.client, 'search_code', { query: 'a'.repeat(80 * 1024) });
    assert.equal(r.isError, true);
    assert.equal(r.json.code, 'invalid_input');
    assert.equal(r.json.message, 'search_code: `query` is 81,920 characters; the limit is 2,000. Shorten it: the tools look up words and identifiers, not whole files');
  });

  it('a 10 MB get_context question is refused at once with its real cause, not advice about max_tokens', { timeout: 30_000 }, async () => {
    const r = await withStatus(served.client, 'get_context', { question: 'how does login work '.repeat(500_000) });
    assert.equal(r.isError, true);
    assert.equal(r.json.code, 'invalid_input');
    assert.match(String(r.json.message), /^get_context: `question` is 10,000,000 characters; the limit is 8,000\./);
    assert.doesNotMatch(String(r.json.message), /max_tokens/);
  });

  it('a question over the 10 MiB a message may have is refused, and the server goes on answering', { timeout: 30_000 }, async () => {
    // Its own server: on the code before the fix the SDK closed its input for good.
    const own = await indexedServer();
    try {
      const r = await withStatus(own.client, 'get_context', { question: 'q'.repeat(10_485_760) });
      assert.equal(r.isError, true);
      assert.equal(r.json.code, 'invalid_input');
      assert.match(String(r.json.message), /the request is [\d,]+ bytes, over the 10,485,760 a message may have; `question` is 10,485,760 characters; the limit is 8,000/);
    } finally {
      await own.close();
    }
  });

  it('errors quote at most a prefix of a 400 KB argument, name or key', { timeout: 30_000 }, async () => {
    const huge = 'p'.repeat(400 * 1024);
    const calls: [string, Record<string, unknown>][] = [
      ['search_code', { query: 'route', path: huge }],
      ['find_definition', { symbol: 'SessionStore', path: huge.slice(0, 4_000) }],
      ['search_code', { query: 'route', [huge]: 1 }],
      [huge, {}],
    ];
    for (const [name, args] of calls) {
      const r = await quick(served.client, name, args);
      assert.equal(r.isError, true);
      assert.ok(r.tokens <= 1_000, `${name.slice(0, 20)}: ${r.tokens} tokens of error`);
      assert.match(String(r.json.message), /\S/);
    }
    const r = await quick(served.client, 'search_code', { query: 'route', path: huge });
    assert.equal(r.json.message, 'search_code: `path` is 409,600 characters; the limit is 4,096. Shorten it: the tools look up words and identifiers, not whole files');
  });

  it('every tool honours max_tokens=200, the freshness stamp included', { timeout: 60_000 }, async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['index_status', {}],
      ['get_context', { question: 'how does login open a session?' }],
      ['get_context', { question: longQuery }],
      ['search_code', { query: 'session' }],
      ['find_definition', { symbol: 'SessionStore' }],
      ['find_references', { symbol: 'SessionStore' }],
      ['get_repo_map', { focus: longQuery }],
      ['why', { ref_id: 'src/auth/session.ts' }],
      ['ask_oracle', { question: 'how does login open a session?' }],
    ];
    for (const [name, args] of calls) {
      const raw = (await served.client.callTool({ name, arguments: { ...args, max_tokens: 200 } }, undefined, { timeout: 30_000 })) as CallToolResult;
      const texts = raw.content.map((c) => (c.type === 'text' ? c.text : ''));
      const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
      assert.ok(tokens <= 200, `${name} ${JSON.stringify(args).slice(0, 60)}: ${tokens} tokens: ${texts[0]?.slice(0, 300)}`);
      if (raw.isError) assert.equal((JSON.parse(texts[0]!) as ErrorBody).code, 'invalid_input', texts[0]);
    }
  });
});

describe('MCP messages the SDK would drop or answer itself', () => {
  it('an object progressToken, constructor keys and non-object arguments all get a reply in the documented shape', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', workspace(), '--no-auto-index'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.stderr.resume();
    const send = (m: object): void => { child.stdin.write(`${JSON.stringify(m)}\n`); };
    const reply = (id: number): Promise<{ result?: CallToolResult; error?: unknown }> => new Promise((resolve, reject) => {
      const deadline = Date.now() + HANG_MS;
      const timer = setInterval(() => {
        const line = out.split('\n').find((l) => l.startsWith('{') && (JSON.parse(l) as { id?: number }).id === id);
        if (line) { clearInterval(timer); resolve(JSON.parse(line) as { result?: CallToolResult; error?: unknown }); }
        else if (Date.now() > deadline) { clearInterval(timer); reject(new Error(`no reply to ${id} within ${HANG_MS} ms`)); }
      }, 20);
    });
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
      await reply(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const calls: [number, unknown, string | undefined][] = [
        [2, { name: 'index_status', arguments: {}, _meta: { progressToken: { a: 1 } } }, undefined],
        [3, { name: 'search_code', arguments: { constructor: {} } }, 'required'],
        [4, { name: 'search_code', arguments: { query: 'x', constructor: 1 } }, 'invalid_input'],
        [5, { name: 'search_code', arguments: JSON.parse('{"query":"x","__proto__":{"a":1}}') as unknown }, 'invalid_input'],
        [6, { name: 'index_status', arguments: 5 }, 'invalid_input'],
        [7, { name: 'index_status', arguments: ['a'] }, 'invalid_input'],
        [8, { name: 'index_status', arguments: {}, _meta: 'not an object' }, undefined],
      ];
      for (const [id, params] of calls) send({ jsonrpc: '2.0', id, method: 'tools/call', params });
      for (const [id, , code] of calls) {
        const r = await reply(id);
        assert.equal(r.error, undefined, `call ${id}: ${JSON.stringify(r.error)}`);
        const body = JSON.parse((r.result!.content[0] as { text: string }).text) as ErrorBody & { exists?: boolean };
        if (code) {
          assert.equal(r.result!.isError, true, `call ${id}`);
          assert.equal(body.code, code, `call ${id}: ${body.message}`);
        } else {
          assert.notEqual(r.result!.isError, true, `call ${id}`);
          assert.equal(body.exists, false);
        }
      }
    } finally {
      child.kill('SIGKILL');
    }
  });
});
