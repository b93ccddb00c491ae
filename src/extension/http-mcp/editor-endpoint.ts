/**
 * The in-editor MCP endpoint's lifecycle: started on demand (the Show MCP Endpoint command) or at start-up when
 * `contextOracle.mcpHttp.enabled` is set, only in a trusted workspace; a fresh token per start; closed on deactivate.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { OracleClient } from '../oracle-client';
import { editorTools } from './editor-tools';
import { startMcpHttp, type McpHttpEndpoint } from './mcp-http-server';

export interface EndpointInfo {
  url: string;
  token: string;
  /** What to paste into an agent's MCP configuration. */
  config: { mcpServers: Record<string, { type: 'http'; url: string; headers: Record<string, string> }> };
}

export class EditorMcpEndpoint implements vscode.Disposable {
  private running: Promise<{ endpoint: McpHttpEndpoint; token: string }> | undefined;

  constructor(private readonly client: OracleClient, private readonly log: vscode.LogOutputChannel, private readonly version: string) {}

  async start(): Promise<EndpointInfo> {
    if (!vscode.workspace.isTrusted) throw new Error('the MCP endpoint is not offered in an untrusted workspace');
    this.running ??= (async () => {
      const token = randomBytes(32).toString('hex');
      const port = vscode.workspace.getConfiguration('contextOracle').get<number>('mcpHttp.port', 0);
      const endpoint = await startMcpHttp({
        token, port, tools: editorTools(this.client), serverInfo: { name: 'context-oracle-editor', version: this.version },
        log: (m) => this.log.warn(m),
      });
      this.log.info(`MCP endpoint for outside agents listening on ${endpoint.url} (bearer token required)`);
      return { endpoint, token };
    })();
    this.running.catch(() => { this.running = undefined; });
    const { endpoint, token } = await this.running;
    return {
      url: endpoint.url, token,
      config: { mcpServers: { 'context-oracle-editor': { type: 'http', url: endpoint.url, headers: { Authorization: `Bearer ${token}` } } } },
    };
  }

  dispose(): void {
    const r = this.running;
    this.running = undefined;
    void r?.then(({ endpoint }) => endpoint.close(), () => undefined);
  }
}

export function registerEndpointCommand(endpoint: EditorMcpEndpoint, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand('contextOracle.showMcpEndpoint', async (options?: { silent?: boolean }) => {
    try {
      const info = await endpoint.start();
      if (!options?.silent) {
        const text = JSON.stringify(info.config, null, 2);
        await vscode.env.clipboard.writeText(text);
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: text });
        await vscode.window.showTextDocument(doc, { preview: true });
        void vscode.window.showInformationMessage('Context Oracle: the MCP configuration is on the clipboard. The token is valid until the editor closes; keep it private.');
      }
      return info;
    } catch (e) {
      log.warn(`MCP endpoint: ${e instanceof Error ? e.message : String(e)}`);
      void vscode.window.showErrorMessage(`Context Oracle: MCP endpoint not started: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  });
}
