/** The in-editor MCP endpoint's HTTP side on 127.0.0.1: token, origin, JSON-RPC, tools; real sockets, no mocks. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { startMcpHttp, ToolInputError, type McpHttpEndpoint } from '../../src/extension/http-mcp/mcp-http-server';

const TOKEN = 'a'.repeat(64);
let ep: McpHttpEndpoint;
before(async () => {
  ep = await startMcpHttp({
    token: TOKEN, serverInfo: { name: 'test', version: '0' },
    tools: [{
      name: 'echo', description: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      run: async (a) => { if (typeof a.text !== 'string') throw new ToolInputError('text is required'); return a.text; },
    }],
  });
});
after(() => ep.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const json = async (r: Response): Promise<Json> => r.json();
const post = (body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }, url = ep.url) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** A raw HTTP/1.1 request with exactly these headers (fetch would set Host itself and refuses to change it). */
function raw(headers: Record<string, string>, body?: string): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: ep.port, path: '/mcp', method: 'POST', setHost: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
const good = (): Record<string, string> => ({ Host: `127.0.0.1:${ep.port}`, Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

test('listens on loopback only', () => {
  assert.match(ep.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

test('no token, a wrong token or a web origin is refused before anything runs', async () => {
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {})).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${'b'.repeat(64)}` })).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${TOKEN.slice(1)}` })).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' })).status, 403);
});

test('a request from a web page is refused whatever its Origin, a loopback page too; agents send none', async () => {
  for (const origin of ['https://evil.example', 'http://localhost:3000', `http://127.0.0.1:${ep.port}`, 'http://[::1]:8080', 'null']) {
    assert.equal((await raw({ ...good(), Origin: origin }, PING)).status, 403, origin);
  }
  const ok = await raw(good(), PING);
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { jsonrpc: '2.0', id: 1, result: {} });
});

test('the Host must be the bound port on 127.0.0.1 or localhost (DNS rebinding)', async () => {
  const refused = ['evil.example', `evil.example:${ep.port}`, '127.0.0.1', `127.0.0.1:${ep.port + 1}`, `localhost:${ep.port}.evil.example`, `[::1]:${ep.port}`, `127.0.0.2:${ep.port}`];
  for (const host of refused) assert.equal((await raw({ ...good(), Host: host }, PING)).status, 403, host);
  const { Host: _host, ...noHost } = good();
  // node:http itself answers an HTTP/1.1 request without a Host with 400 before the handler runs
  assert.ok([400, 403].includes((await raw(noHost, PING)).status), 'no Host');
  for (const host of [`127.0.0.1:${ep.port}`, `localhost:${ep.port}`, `LOCALHOST:${ep.port}`]) {
    const r = await raw({ ...good(), Host: host }, PING);
    assert.equal(r.status, 200, host);
    assert.deepEqual(r.body.result, {});
  }
});

test('null, a batch holding null, an empty batch or a bare value is an invalid request (400, -32600), not a crash', async () => {
  for (const body of ['null', '[null]', `[${PING},null]`, '[]', '42', '"ping"', 'true', `[${PING},7]`]) {
    const r = await raw(good(), body);
    assert.equal(r.status, 400, body);
    assert.equal(r.body.error.code, -32600, body);
    assert.equal(r.body.id, null, body);
  }
  const batch = await raw(good(), `[${PING}]`);
  assert.equal(batch.status, 200, 'a well-formed batch still works');
  assert.deepEqual(batch.body, [{ jsonrpc: '2.0', id: 1, result: {} }]);
});

test('initialize, tools/list and tools/call speak MCP over JSON-RPC', async () => {
  const init = await json(await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }));
  assert.equal(init.result.protocolVersion, '2025-06-18');
  assert.deepEqual(init.result.capabilities, { tools: { listChanged: false } });
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const list = await json(await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  assert.deepEqual(list.result.tools.map((t: { name: string }) => t.name), ['echo']);
  const call = await json(await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }));
  assert.deepEqual(call.result, { content: [{ type: 'text', text: 'hi' }], isError: false });
  const bad = await json(await post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: {} } }));
  assert.equal(bad.result.isError, true);
  assert.match(bad.result.content[0].text, /text is required/);
  const batch = await json(await post([{ jsonrpc: '2.0', id: 5, method: 'ping' }, { jsonrpc: '2.0', id: 6, method: 'nope' }]));
  assert.deepEqual(batch.map((r: { id: number }) => r.id), [5, 6]);
  assert.equal(batch[1].error.code, -32601);
});

test('bad bodies and wrong routes get HTTP errors, not crashes', async () => {
  assert.equal((await post('{not json')).status, 400);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, undefined, ep.url.replace('/mcp', '/other'))).status, 404);
  assert.equal((await fetch(ep.url, { headers: { Authorization: `Bearer ${TOKEN}` } })).status, 405);
  assert.equal((await post('x'.repeat(2 * 1024 * 1024))).status, 400);
  assert.equal((await post({ jsonrpc: '2.0', id: 9, method: 'ping' })).status, 200, 'still serving');
});
