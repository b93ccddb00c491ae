/**
 * The MCP server as a process: stdout carries nothing but JSON-RPC (logs go to stderr), it exits when the client
 * closes stdin, cold-start calls all wait for the one background index, and without auto-indexing a missing index
 * is a not_initialized error that says how to build it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { CLI, runCli } from '../helpers/cli';
import { call, fixtureWorkspaces, serve, type ErrorBody } from './mcp-harness';

const workspace = fixtureWorkspaces();

describe('MCP server process', () => {
  it('writes only JSON-RPC to stdout, logs to stderr, and exits 0 when stdin closes', async () => {
    const root = workspace();
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', root, '-v'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { err += c.toString('utf8'); });
    const send = (m: object): void => { child.stdin.write(`${JSON.stringify(m)}\n`); };
    const answered = (id: number): Promise<void> => new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        if (out.split('\n').some((l) => l.includes(`"id":${id},`) || l.endsWith(`"id":${id}}`))) { clearInterval(timer); resolve(); }
      }, 20);
      child.once('exit', () => { clearInterval(timer); reject(new Error(`exited before answering ${id}: ${err}`)); });
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    // Indexing (worker threads, WASM grammars) runs while these are answered: anything they print must not leak.
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'route' }, _meta: { progressToken: 'p1' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'find_definition', arguments: {} } });
    await Promise.all([answered(2), answered(3), answered(4)]);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    assert.equal(await exited, 0);

    const lines = out.split('\n').filter((l) => l.length > 0);
    assert.ok(lines.length >= 5, 'answers and progress notifications');
    for (const line of lines) {
      const msg = JSON.parse(line) as { jsonrpc?: string; id?: number; method?: string };
      assert.equal(msg.jsonrpc, '2.0', `not JSON-RPC: ${line}`);
    }
    assert.ok(lines.some((l) => l.includes('notifications/progress')), 'progress went out for the call with a progressToken');
    assert.match(err, /\[context-oracle (info|debug)\]/, 'logs went to stderr');
  });

  it('cold start: ten calls at once all wait for the same background index', async () => {
    const root = workspace();
    const server = await serve(root, ['-v']);
    try {
      const calls = Array.from({ length: 10 }, (_, i) => (i % 2
        ? call(server.client, 'find_definition', { symbol: 'SessionStore' })
        : call(server.client, 'search_code', { query: 'route' })));
      const results = await Promise.all(calls);
      for (const [i, r] of results.entries()) {
        assert.equal(r.isError, false, r.texts[0]);
        if (i % 2) assert.equal((r.json.results as { path: string }[])[0]?.path, 'src/auth/session.ts');
        else assert.equal((r.json.results as { path: string }[])[0]?.path, 'src/router.ts');
      }
      const runs = server.stderr().match(/index \((startup|refresh|build)\): starting/g) ?? [];
      assert.equal(runs.length, 1, `one index run served every call:\n${server.stderr()}`);
    } finally {
      await server.close();
    }
  });

  it('refuses to serve a home folder it was merely started in', () => {
    const home = workspace();
    const r = runCli(['mcp'], { cwd: home, env: { HOME: home } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /without --root; pass --root <project folder>/);
  });

  it('--no-auto-index: a missing index is not_initialized with the command that builds it', async () => {
    const root = workspace();
    const server = await serve(root, ['--no-auto-index']);
    try {
      const r = await call<ErrorBody>(server.client, 'search_code', { query: 'route' });
      assert.equal(r.isError, true);
      assert.equal(r.json.code, 'not_initialized');
      assert.match(r.json.message, /context-oracle index --root/);
      const status = await call<{ exists: boolean; indexing: { state: string }; hint: string }>(server.client, 'index_status', {});
      assert.equal(status.json.exists, false);
      assert.equal(status.json.indexing.state, 'disabled');
      // Built by another process, the index is picked up without restarting the server.
      assert.equal(runCli(['index', '--root', root]).code, 0);
      const after = await call<{ results: { path: string }[] }>(server.client, 'search_code', { query: 'route' });
      assert.equal(after.isError, false, after.texts[0]);
      assert.equal(after.json.results[0]?.path, 'src/router.ts');
    } finally {
      await server.close();
    }
  });
});
