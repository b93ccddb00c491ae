/**
 * The same idea gets the same check through both hosts (src/protocol/fields.ts): a bad question, symbol, node id,
 * budget, limit or depth sent to a language-server request (checkedParams over request-schemas.ts, camelCase) and
 * to an MCP tool (parseArgs over the tool's input, snake_case) is refused with the same words after the name.
 * Before the fields were shared the two hosts worded these differently (zod's defaults on the MCP side).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { ToolError } from '../../src/mcp/errors';
import { parseArgs, type ToolSpec } from '../../src/mcp/tool';
import { TOOLS } from '../../src/mcp/tools';
import type { OracleRequestMethod } from '../../src/protocol/language-server';
import { checkedParams } from '../../src/server/checked-params';

/** What the language server says after the param's name ("limit must be at least 1" → "must be at least 1"). */
function lspWords(method: OracleRequestMethod, param: string, params: Record<string, unknown>): string {
  try {
    checkedParams(method, params);
  } catch (e) {
    assert.ok(e instanceof EngineError, String(e));
    assert.ok(e.message.startsWith(`${param} `), e.message);
    return e.message.slice(param.length + 1);
  }
  assert.fail(`${method} accepted ${JSON.stringify(params)}`);
}

/** What the MCP server says after the argument's name ("why: `depth`: must be at least 1" → "must be at least 1"). */
function mcpWords(tool: string, arg: string, args: Record<string, unknown>): string {
  const spec = TOOLS.find((t) => t.name === tool) as ToolSpec | undefined;
  assert.ok(spec, tool);
  try {
    parseArgs(spec, args);
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    const prefix = `${tool}: \`${arg}\`: `;
    assert.ok(e.message.startsWith(prefix), e.message);
    return e.message.slice(prefix.length);
  }
  assert.fail(`${tool} accepted ${JSON.stringify(args)}`);
}

// [idea, LSP method, its param, MCP tool, its argument, the other params each needs, bad values, the words expected]
const cases: Array<[string, OracleRequestMethod, string, string, string, Record<string, unknown>, Record<string, unknown>, unknown[], string]> = [
  ['a question', 'contextOracle/context', 'question', 'get_context', 'question', {}, {}, ['   ', 42], 'must be a non-empty string'],
  ['a symbol', 'contextOracle/definitions', 'symbol', 'find_definition', 'symbol', {}, {}, ['', ' \t', ['x']], 'must be a non-empty string'],
  ['a node id', 'contextOracle/why', 'refId', 'why', 'ref_id', {}, {}, [' ', 7], 'must be a non-empty string'],
  ['a budget', 'contextOracle/context', 'maxTokens', 'get_context', 'max_tokens', { question: 'q' }, { question: 'q' }, [1000.5, 'lots', null], 'must be a whole number'],
  ['a limit', 'contextOracle/definitions', 'limit', 'find_definition', 'limit', { symbol: 'x' }, { symbol: 'x' }, [2.5, '3'], 'must be a whole number'],
  ['a limit below one', 'contextOracle/references', 'limit', 'find_references', 'limit', { symbol: 'x' }, { symbol: 'x' }, [0, -4], 'must be at least 1'],
  ['a depth', 'contextOracle/why', 'depth', 'why', 'depth', { refId: 'a' }, { ref_id: 'a' }, [1.5, true], 'must be a whole number'],
  ['a depth below one', 'contextOracle/why', 'depth', 'why', 'depth', { refId: 'a' }, { ref_id: 'a' }, [0], 'must be at least 1'],
];

describe('request fields are checked once for both hosts', () => {
  for (const [idea, method, param, tool, arg, lspRest, mcpRest, bad, words] of cases) {
    it(`${idea}: ${method} ${param} and ${tool} ${arg} refuse the same values with the same words`, () => {
      for (const value of bad) {
        const lsp = lspWords(method, param, { ...lspRest, [param]: value });
        const mcp = mcpWords(tool, arg, { ...mcpRest, [arg]: value });
        assert.equal(lsp, words, `${method} ${param}=${JSON.stringify(value)}`);
        assert.equal(mcp, words, `${tool} ${arg}=${JSON.stringify(value)}`);
      }
    });
  }

  it('each host keeps its own range, worded the same way', () => {
    // MCP caps a budget at what agents accept; the editor's budgets come from settings.
    assert.equal(mcpWords('get_context', 'max_tokens', { question: 'q', max_tokens: 100 }), 'must be at least 200');
    assert.equal(mcpWords('get_context', 'max_tokens', { question: 'q', max_tokens: 30_000 }), 'must be at most 25,000');
    assert.doesNotThrow(() => checkedParams('contextOracle/context', { question: 'q', maxTokens: 100 }));
  });
});
