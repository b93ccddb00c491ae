/**
 * activate() is the composition root of the editor host: output channel, status bar, commands, the Oracle panel,
 * hovers and CodeLens, Problems, the file watcher, chat participant, language model tools, the MCP server definition
 * and the language server client. It does no indexing and does not wait for the server: the server indexes in the
 * background and reports through notifications. Untrusted workspaces are not indexed until trust is granted.
 */
import * as vscode from 'vscode';
import { registerAgentSurfaces, type AgentFeatures } from './agent-surfaces';
import { AnnotationInsights } from './annotation-insights';
import type { StdioDefinition } from './chat/mcp-provider';
import { registerCommands } from './commands';
import { EditorModels } from './editor-models';
import { errorMessage } from './errors';
import { watchForChanges, type ChangeWatcher } from './freshness-watcher';
import { IndexState } from './index-state';
import { registerModelConfig } from './model-config';
import { navigationHandlers } from './navigation-bridge';
import { registerOracleCommands } from './oracle-commands';
import { createOracleClient, type OracleClient } from './oracle-client';
import { openLocation } from './open-location';
import { OraclePanel, PANEL_VIEW_ID } from './panel/oracle-panel';
import { ProblemsView } from './problems';
import { RefIdCatalog } from './ref-id-pick';
import { EditorMcpEndpoint, registerEndpointCommand } from './http-mcp/editor-endpoint';
import { IndexStatusBar } from './status-bar';

let clientToStop: OracleClient | undefined;

/** What activate() returns: for tests and for other extensions. */
export interface ContextOracleApi {
  activationMs: number;
  features: AgentFeatures;
  mcpServerDefinitions(): StdioDefinition[];
  /** Whether the Oracle panel's webview said `ready`, and the message types posted to it so far. */
  panelState(): { ready: boolean; posted: string[]; resultsReady: boolean; restore?: { restored: boolean; historySent: number } };
}

export function activate(context: vscode.ExtensionContext): ContextOracleApi {
  const t0 = performance.now();
  let activationMs = 0;
  const log = vscode.window.createOutputChannel('Context Oracle', { log: true });
  context.subscriptions.push(log);
  try {
    const state = new IndexState({ state: vscode.workspace.isTrusted ? 'starting' : 'untrusted' });
    const bar = new IndexStatusBar();
    const models = new EditorModels(log);
    const client = createOracleClient(context, log, { ...navigationHandlers, ...models.handlers });
    clientToStop = client;
    models.sendChunk = (stream, text) => client.notify('contextOracle/lm/chunk', { stream, text });
    const problems = new ProblemsView(client, log);
    const insights = new AnnotationInsights(client, log);
    const catalog = new RefIdCatalog(client);
    const panel = new OraclePanel({
      extensionUri: context.extensionUri, client, log, open: openLocation, state: context.workspaceState,
      run: async (command, refId) => {
        const id = command === 'why' ? 'contextOracle.why' : command === 'bundle' ? 'contextOracle.contextBundle' : 'contextOracle.showGraph';
        await vscode.commands.executeCommand(id, refId);
      },
    });
    context.subscriptions.push(state, bar, client, problems, insights, panel,
      state.onDidChange((v) => bar.update(v)),
      client.onActivity((a) => {
        state.applyActivity(a);
        if (a.state === 'ready') {
          insights.invalidate();
          problems.schedule(0);
          catalog.refresh();
        }
      }),
      client.onNotification('contextOracle/freshness', (stamp) => {
        const before = state.view.freshness;
        state.applyFreshness(stamp);
        // A batch was committed: the index holds new files, so counts, lenses and problems change.
        if (before && before.indexedAt !== stamp.indexedAt) {
          insights.invalidate();
          problems.schedule();
          catalog.refresh();
          client.request('contextOracle/status', {}).then((s) => state.set({ ...state.view, status: s.index }), () => undefined);
        }
      }),
      vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, panel, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, insights),
      vscode.languages.registerHoverProvider({ scheme: 'file' }, insights),
    );
    bar.update(state.view);
    context.subscriptions.push(...registerCommands({ client, state, log, activationMs: () => activationMs }));
    let watcher: ChangeWatcher | undefined;
    context.subscriptions.push(...registerOracleCommands({
      client, panel, log, refreshProblems: () => { insights.invalidate(); problems.schedule(0); }, flushChanges: () => watcher?.flush(), catalog,
    }));
    context.subscriptions.push(models, ...registerModelConfig(context, client, models, log));
    // The panel's header names the model; registered after the listeners above, which tell the server first.
    context.subscriptions.push(
      models.onDidChange(() => panel.refreshModel()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('contextOracle.model')) panel.refreshModel(); }),
    );
    const agents = registerAgentSurfaces(context, client, log);
    const endpoint = new EditorMcpEndpoint(client, log, String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0'));
    context.subscriptions.push(endpoint, registerEndpointCommand(endpoint, log));

    const startServer = (): void => {
      state.set({ state: 'starting' });
      client.start().then(() => {
        void models.refresh().finally(() => panel.refreshModel()); // after the start: the chosen model reaches the server as a notification
        // The server reads graph and rules files afresh on each request; what the editor holds from them must go.
        watcher = watchForChanges(client, () => { insights.invalidate(); problems.schedule(); catalog.refresh(); });
        context.subscriptions.push(watcher);
        if (vscode.workspace.getConfiguration('contextOracle').get<boolean>('mcpHttp.enabled', false)) {
          endpoint.start().catch((e: unknown) => log.warn(`MCP endpoint not started: ${errorMessage(e)}`));
        }
      }, (e: unknown) => {
        log.error(`the language server did not start: ${errorMessage(e)}`);
        state.set({ state: 'server-failed', error: errorMessage(e) });
        void vscode.window.showErrorMessage(`Context Oracle: the language server did not start: ${errorMessage(e)}`);
      });
    };
    if (vscode.workspace.isTrusted) startServer();
    else {
      log.info('workspace not trusted: indexing is off until it is trusted');
      context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(startServer));
    }
    activationMs = performance.now() - t0;
    log.info(`activated in ${activationMs.toFixed(1)} ms (chat participant ${agents.features.chat ? 'on' : 'unavailable'}, ${agents.features.tools.length} language model tools, MCP provider ${agents.features.mcp ? 'on' : 'unavailable'})`);
    return {
      activationMs,
      features: agents.features,
      mcpServerDefinitions: agents.mcpDefinitions,
      panelState: () => ({ ready: panel.isReady(), posted: [...panel.posted], resultsReady: panel.resultsReady(), ...(panel.lastRestore ? { restore: { ...panel.lastRestore } } : {}) }),
    };
  } catch (e) {
    log.error(`activation failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    void vscode.window.showErrorMessage(`Context Oracle failed to activate: ${errorMessage(e)}`);
    throw e;
  }
}

export async function deactivate(): Promise<void> {
  const client = clientToStop;
  clientToStop = undefined;
  await client?.stop();
}
