/**
 * activate() is the composition root of the editor host: output channel, status bar, commands and the language
 * server client. It does no indexing and does not wait for the server: the server indexes in the background and
 * reports through notifications. Untrusted workspaces are not indexed until trust is granted.
 */
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { errorMessage } from './errors';
import { IndexState } from './index-state';
import { createOracleClient, type OracleClient } from './oracle-client';
import { IndexStatusBar } from './status-bar';

let clientToStop: OracleClient | undefined;

export function activate(context: vscode.ExtensionContext): { activationMs: number } {
  const t0 = performance.now();
  let activationMs = 0;
  const log = vscode.window.createOutputChannel('Context Oracle', { log: true });
  context.subscriptions.push(log);
  try {
    const state = new IndexState({ state: vscode.workspace.isTrusted ? 'starting' : 'untrusted' });
    const bar = new IndexStatusBar();
    const client = createOracleClient(context, log);
    clientToStop = client;
    context.subscriptions.push(state, bar, client, state.onDidChange((v) => bar.update(v)), client.onActivity((a) => state.applyActivity(a)));
    bar.update(state.view);
    context.subscriptions.push(...registerCommands({ client, state, log, activationMs: () => activationMs }));

    const startServer = (): void => {
      state.set({ state: 'starting' });
      client.start().catch((e: unknown) => {
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
  } catch (e) {
    log.error(`activation failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    void vscode.window.showErrorMessage(`Context Oracle failed to activate: ${errorMessage(e)}`);
    throw e;
  }
  activationMs = performance.now() - t0;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs };
}

export async function deactivate(): Promise<void> {
  const client = clientToStop;
  clientToStop = undefined;
  await client?.stop();
}
