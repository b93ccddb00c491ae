/**
 * Registers the bundled MCP server (`node dist/cli.js mcp --root <folder>`) with VS Code, so agents in the editor
 * find it without configuration. The API arrived in VS Code 1.101; older versions skip it (feature check), and this
 * file declares the few types it needs because the @types/vscode this extension builds against predates it.
 */
import * as vscode from 'vscode';

export const MCP_PROVIDER_ID = 'contextOracle.mcp';

/** The part of vscode.McpStdioServerDefinition this extension fills. */
export interface StdioDefinition {
  label: string;
  command: string;
  args: string[];
  cwd?: vscode.Uri;
  env: Record<string, string | number | null>;
  version?: string;
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: {
    onDidChangeMcpServerDefinitions?: vscode.Event<void>;
    provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<unknown[]>;
  }): vscode.Disposable;
}

type StdioCtor = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => StdioDefinition;

/** The settings the MCP server shares with the language server: the same index file, redaction, session logs. */
function mcpSettingArgs(c: vscode.WorkspaceConfiguration): string[] {
  const indexPath = c.get<string>('indexPath', '').trim();
  return [
    ...(indexPath ? ['--db', indexPath] : []),
    ...(c.get<boolean>('redactSecrets', true) ? [] : ['--no-redact']),
    ...(c.get<string>('sessionLogs', 'cache') === 'workspace' ? ['--session-logs', 'workspace'] : []),
  ];
}

/** One definition per workspace folder; `node` is the extension host's own runtime (Electron runs as Node here). */
export function mcpDefinitions(extensionUri: vscode.Uri, version: string): StdioDefinition[] {
  const cli = vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath;
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({
    label: (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `Context Oracle (${f.name})` : 'Context Oracle',
    command: process.execPath,
    args: [cli, 'mcp', '--root', f.uri.fsPath, ...mcpSettingArgs(vscode.workspace.getConfiguration('contextOracle', f.uri))],
    cwd: f.uri,
    env: { ELECTRON_RUN_AS_NODE: '1' },
    version,
  }));
}

export function registerMcpProvider(context: vscode.ExtensionContext): { disposable?: vscode.Disposable; definitions: () => StdioDefinition[] } {
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const definitions = (): StdioDefinition[] => mcpDefinitions(context.extensionUri, version);
  const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
  const Stdio = (vscode as unknown as { McpStdioServerDefinition?: StdioCtor }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Stdio !== 'function') return { definitions };
  const changed = new vscode.EventEmitter<void>();
  const disposable = vscode.Disposable.from(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      // The server indexes the folder it is given: none in an untrusted workspace (restricted mode runs nothing).
      provideMcpServerDefinitions: () => (vscode.workspace.isTrusted ? definitions() : []).map((d) => {
        const def = new Stdio(d.label, d.command, d.args, d.env, d.version);
        def.cwd = d.cwd;
        return def;
      }),
    }),
  );
  return { disposable, definitions };
}
