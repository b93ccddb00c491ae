/** The in-editor MCP endpoint's HTTP side on 127.0.0.1: token, origin, JSON-RPC, tools; real sockets, no mocks. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { allowedOrigin, startMcpHttp, ToolInputError, type McpHttpEndpoint } from '../../src/extension/http-mcp/mcp-http-server';

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

test('listens on loopback only', () => {
  assert.match(ep.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

test('no token, a wrong token or a web origin is refused before anything runs', async () => {
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {})).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${'b'.repeat(64)}` })).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${TOKEN.slice(1)}` })).status, 401);
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' })).status, 403);
  assert.equal(allowedOrigin('http://localhost:3000'), true);
  assert.equal(allowedOrigin('null'), false);
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
