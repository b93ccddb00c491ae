/** Inbound messages made answerable before the SDK sees them (see src/mcp/inbound.ts). */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { inboundLines, normalizeInbound, OVERSIZE, RAW_ARGUMENTS } from '../../src/mcp/inbound';

const call = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

describe('MCP inbound messages', () => {
  it('leaves ordinary messages untouched (the same object)', () => {
    for (const m of [call({ name: 'search_code', arguments: { query: 'x' }, _meta: { progressToken: 'p' } }), call({ name: 'index_status' }), { jsonrpc: '2.0', method: 'notifications/initialized' }, 'garbage']) {
      assert.equal(normalizeInbound(m), m);
    }
  });

  it('drops a progressToken that is not a string or number, and a _meta that is not an object', () => {
    assert.deepEqual(normalizeInbound(call({ name: 'index_status', arguments: {}, _meta: { progressToken: { a: 1 }, other: 2 } })), call({ name: 'index_status', arguments: {}, _meta: { other: 2 } }));
    assert.deepEqual(normalizeInbound(call({ name: 'index_status', _meta: 5 })), call({ name: 'index_status' }));
  });

  it('moves arguments the SDK refuses under _meta, untouched', () => {
    for (const args of [{ constructor: {} }, JSON.parse('{"__proto__":{"a":1},"query":"x"}') as unknown, 5, ['a'], null]) {
      const out = normalizeInbound(call({ name: 'search_code', arguments: args })) as { params: { arguments: unknown; _meta: Record<string, unknown> } };
      assert.deepEqual(out.params.arguments, {});
      assert.equal(out.params._meta[RAW_ARGUMENTS], args);
    }
  });

  it('passes lines on, and turns a tools/call over the message limit into a small one that says how big it was', async () => {
    const input = new PassThrough();
    const dropped: string[] = [];
    const out = inboundLines(input, (why) => dropped.push(why), 1_000);
    let text = '';
    out.on('data', (c: Buffer) => { text += c.toString('utf8'); });
    const small = JSON.stringify(call({ name: 'index_status', arguments: {} }));
    const big = JSON.stringify(call({ name: 'get_context', arguments: { question: 'q'.repeat(5_000) } }));
    input.write(`${small}\n${big.slice(0, 100)}`);
    input.write(`${big.slice(100)}\nnot json\n${JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(2_000) } })}\n`);
    input.end();
    await new Promise((r) => out.on('end', r));
    const lines = text.split('\n').filter(Boolean);
    assert.equal(lines[0], small);
    const shrunk = JSON.parse(lines[1]!) as { id: number; params: { name: string; arguments: unknown; _meta: Record<string, unknown> } };
    assert.equal(shrunk.id, 1);
    assert.deepEqual(shrunk.params.arguments, {});
    assert.deepEqual(shrunk.params._meta[OVERSIZE], { bytes: big.length, limit: 1_000, argument: 'question', chars: 5_000 });
    assert.equal(lines[2], 'not json');
    assert.equal(lines.length, 3);
    assert.equal(dropped.length, 1, 'the oversized message that is not a tools/call is skipped, and said so');
  });
});
