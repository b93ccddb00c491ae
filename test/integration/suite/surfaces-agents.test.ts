import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import type { ContextOracleApi } from '../../../src/extension/extension';
import { EXTENSION_ID, waitForStatus, workspaceRoot } from './helpers';

const ext = (): vscode.Extension<ContextOracleApi> => vscode.extensions.getExtension<ContextOracleApi>(EXTENSION_ID)!;
const TOOLS = ['contextOracle_getContext', 'contextOracle_findDefinition', 'contextOracle_findReferences', 'contextOracle_repoMap', 'contextOracle_why'];

/** Starts an MCP server from its definition and lists its tools over stdio (newline-delimited JSON-RPC). */
function mcpToolNames(command: string, args: string[], env: Record<string, string | number | null>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) }, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => { child.kill(); reject(new Error('the MCP server did not answer within 30 s')); }, 30_000);
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`MCP server exited ${code}: ${stderr.slice(-500)}`)); });
    const send = (m: unknown): void => { child.stdin.write(`${JSON.stringify(m)}\n`); };
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i).trim();
        buffer = buffer.slice(i + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as { id?: number; result?: { tools?: { name: string }[] } };
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (msg.id === 2) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          child.kill();
          resolve((msg.result?.tools ?? []).map((t) => t.name));
        }
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'integration-test', version: '0' } } });
  });
}

suite('Chat participant, language model tools, MCP', () => {
  suiteSetup(async () => {
    await waitForStatus((s) => s.state === 'ready' && s.exists, 'an index');
  });

  test('the @oracle participant and its commands are contributed and registered', () => {
    const pj = ext().packageJSON.contributes;
    const p = (pj.chatParticipants as { id: string; name: string; commands: { name: string }[] }[])[0]!;
    assert.equal(p.name, 'oracle');
    assert.deepEqual(p.commands.map((c) => c.name), ['context', 'why', 'map', 'def', 'refs']);
    assert.equal(ext().exports.features.chat, typeof vscode.chat?.createChatParticipant === 'function');
    assert.equal(ext().exports.features.chat, true, `VS Code ${vscode.version} has the chat API`);
  });

  test('the language model tools are declared and registered', async () => {
    const declared = (ext().packageJSON.contributes.languageModelTools as { name: string }[]).map((t) => t.name);
    assert.deepEqual(declared, TOOLS);
    assert.deepEqual(ext().exports.features.tools, TOOLS);
    const registered = vscode.lm.tools.map((t) => t.name);
    for (const name of TOOLS) assert.ok(registered.includes(name), `${name} not in vscode.lm.tools (${registered.join(', ')})`);
    const result = await vscode.lm.invokeTool('contextOracle_findDefinition', { input: { symbol: 'formatBanner' }, toolInvocationToken: undefined });
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /src\/format\.ts:8/);
  });

  test('the MCP server definition is provided and the server it names answers tools/list', async () => {
    assert.equal(ext().exports.features.mcp, true, `VS Code ${vscode.version} has registerMcpServerDefinitionProvider`);
    const defs = ext().exports.mcpServerDefinitions();
    assert.equal(defs.length, 1);
    const d = defs[0]!;
    assert.equal(d.label, 'Context Oracle');
    assert.deepEqual(d.args.slice(1), ['mcp', '--root', workspaceRoot()]);
    assert.ok(d.args[0]!.endsWith('dist/cli.js'));
    const tools = await mcpToolNames(d.command, d.args, d.env);
    assert.ok(tools.includes('find_definition') || tools.length >= 5, `MCP tools: ${tools.join(', ')}`);
    console.log(`MCP server tools: ${tools.join(', ')}`);
  });
});

suite('In-editor MCP endpoint over HTTP', () => {
  test("serves the editor's definitions and references on 127.0.0.1 with a bearer token, inside the workspace only", async () => {
    const info = await vscode.commands.executeCommand<{ url: string; token: string; config: { mcpServers: Record<string, { url: string }> } }>('contextOracle.showMcpEndpoint', { silent: true });
    assert.ok(info, 'the endpoint started');
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(info.config.mcpServers['context-oracle-editor']!.url, info.url);
    const call = async (name: string, args: Record<string, unknown>, token = info.token): Promise<{ status: number; text?: string; isError?: boolean }> => {
      const r = await fetch(info.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
      if (r.status !== 200) return { status: r.status };
      const j = await r.json() as { result: { content: { text: string }[]; isError: boolean } };
      return { status: 200, text: j.result.content[0]!.text, isError: j.result.isError };
    };
    assert.equal((await call('definition_at', { path: 'src/format.ts', line: 1, column: 10 }, 'wrong')).status, 401);
    await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src', 'format.ts'));
    // The call `makeGreeter()` in format.ts: the TypeScript server resolves it to greeter.ts once its project is loaded
    // (until then it may answer the import binding in format.ts itself).
    let def = await call('definition_at', { path: 'src/format.ts', line: 10, column: 22 });
    for (let i = 0; i < 60 && !def.text?.includes('src/greeter.ts'); i++) {
      await new Promise((r) => setTimeout(r, 250));
      def = await call('definition_at', { path: 'src/format.ts', line: 10, column: 22 });
    }
    assert.match(def.text ?? '', /^src\/greeter\.ts:11:17$/m, def.text);
    const refs = await call('references_at', { path: 'src/greeter.ts', line: 11, column: 17 });
    assert.match(refs.text ?? '', /src\/format\.ts:10:22/);
    const outside = await call('definition_at', { path: '../../etc/passwd', line: 1 });
    assert.equal(outside.isError, true);
    assert.match(outside.text ?? '', /inside the workspace/);
    const byName = await call('find_definition', { symbol: 'formatBanner' });
    assert.match(byName.text ?? '', /src\/format\.ts:8/);
  });
});
