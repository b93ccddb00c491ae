/**
 * What tools/list costs: every agent sends this JSON to its model on every turn, so its size is a budget of its own.
 * And every string argument a model can fill is capped (the hostile-client rule of docs/security.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listTools } from '../../src/mcp/server';
import { TOOLS } from '../../src/mcp/tools';

/** Characters of `JSON.stringify` of the tools/list result: the ceiling issue 20 set for the fifteen tools. */
const MAX_LIST_CHARS = 12_000;

interface Schema {
  type?: string;
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Paths of every free string without maxLength and every array without maxItems (nested ones included). */
function uncapped(schema: Schema, at: string): string[] {
  if (schema.type === 'string') return schema.maxLength === undefined && !schema.enum ? [at] : [];
  return [
    ...(schema.type === 'array' && schema.maxItems === undefined ? [at] : []),
    ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => uncapped(s, `${at}.${k}`)),
    ...(schema.items ? uncapped(schema.items, `${at}[]`) : []),
  ];
}

describe('tools/list', () => {
  const tools = listTools(TOOLS);

  it(`stays under ${MAX_LIST_CHARS.toLocaleString('en-US')} characters of JSON`, () => {
    const chars = JSON.stringify({ tools }).length;
    assert.ok(chars < MAX_LIST_CHARS, `tools/list is ${chars} characters`);
  });

  it('caps every string argument with maxLength (and every list with maxItems)', () => {
    for (const t of tools) assert.deepEqual(uncapped(t.inputSchema as Schema, t.name), [], `${t.name} has uncapped strings`);
  });

  it('says the cost of each tool in tokens and takes max_tokens everywhere', () => {
    for (const t of tools) {
      assert.match(t.description ?? '', /token/i, `${t.name} says what it costs`);
      assert.ok((t.inputSchema.properties as Record<string, unknown>).max_tokens, `${t.name} takes max_tokens`);
    }
  });

  it('marks mark_synced, the one tool that writes the workspace, as not read-only; the graph readers as read-only', () => {
    const hints = new Map(tools.map((t) => [t.name, t.annotations]));
    assert.equal(hints.get('mark_synced')?.readOnlyHint, false);
    assert.equal(hints.get('mark_synced')?.destructiveHint, false);
    for (const name of ['list_nodes', 'get_node', 'get_graph', 'query', 'lint', 'sync_check']) assert.equal(hints.get(name)?.readOnlyHint, true, name);
  });
});
