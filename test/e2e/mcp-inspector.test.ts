/**
 * The MCP server driven by a second, independent real client: the MCP Inspector's CLI (`mcp-inspector --cli`, from
 * npm), which spawns `node dist/cli.js mcp` over stdio the way an agent host does. It lists the tools, answers an
 * ordinary search, and answers the hostile budget case of a ~150-word query with max_tokens 200 (which once looped
 * forever in the budget fitter and hung the server) promptly, within the budget.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { countTokens } from '../../src/core/tokens';
import { CLI } from '../helpers/cli';
import { fixtureWorkspaces } from './mcp-harness';

const INSPECTOR = resolve('node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

interface Run { code: number | null; stdout: string; stderr: string; ms: number }

function inspector(root: string, args: string[], timeoutMs = 60_000): Promise<Run> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(process.execPath, [INSPECTOR, '--cli', process.execPath, CLI, 'mcp', '--root', root, ...args],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr, ms: Date.now() - started });
      });
  });
}

/** The tool's JSON body from an Inspector `tools/call` printout. */
function toolBody(run: Run): { isError: boolean; body: Record<string, unknown>; text: string } {
  assert.equal(run.code, 0, `inspector exited ${run.code}: ${run.stderr.slice(-2000)}`);
  const result = JSON.parse(run.stdout) as { content: { type: string; text: string }[]; isError?: boolean };
  const text = result.content[0]!.text;
  return { isError: result.isError === true, body: JSON.parse(text) as Record<string, unknown>, text };
}

describe('MCP server through the MCP Inspector CLI', () => {
  const workspace = fixtureWorkspaces();

  it('lists the tools with their input schemas', async () => {
    const run = await inspector(workspace(), ['--method', 'tools/list']);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; inputSchema: { type: string } }[] };
    const names = tools.map((t) => t.name);
    for (const expected of ['search_code', 'get_context', 'ask_oracle', 'index_status']) assert.ok(names.includes(expected), names.join(', '));
    assert.ok(tools.every((t) => t.inputSchema.type === 'object'));
  });

  it('answers a search with results from the workspace', async () => {
    const { isError, body } = toolBody(await inspector(workspace(), ['--method', 'tools/call', '--tool-name', 'search_code', '--tool-arg', 'query=router']));
    assert.equal(isError, false);
    assert.match(JSON.stringify(body), /router\.ts/);
  });

  it('a 150-word query with max_tokens=200 answers within the budget instead of hanging', async () => {
    const words = ['order', 'payment', 'retry', 'invoice', 'user', 'cart', 'checkout', 'session', 'token', 'route'];
    const query = Array.from({ length: 150 }, (_, i) => words[i % words.length]).join(' ');
    const run = await inspector(workspace(), ['--method', 'tools/call', '--tool-name', 'search_code', '--tool-arg', `query=${query}`, '--tool-arg', 'max_tokens=200'], 30_000);
    const { isError, body, text } = toolBody(run);
    assert.ok(countTokens(text) <= 200, `${countTokens(text)} tokens for max_tokens=200`);
    // Either a page of results, or (when not even one result fits beside the echoed query) a typed error naming it.
    if (isError) {
      assert.equal(body.code, 'invalid_input');
      assert.match(String(body.message), /`query`/);
    } else assert.ok(Array.isArray(body.results), text);
  });
});
