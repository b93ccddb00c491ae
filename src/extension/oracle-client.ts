/**
 * The extension's side of the language server: starts dist/server.js (IPC), forwards the server's log to the
 * output channel, and offers typed requests and activity events from src/protocol/language-server.ts.
 * vscode-languageclient is loaded on first start, not when the extension module loads, to keep activation short.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type {
  InitializationOptions, OracleNotifications, OracleRequestMethod, OracleRequests,
} from '../protocol/language-server';
import { readServerSettings } from './settings';

export type ActivityNotification = OracleNotifications['contextOracle/activity'];

export interface OracleClient extends vscode.Disposable {
  /** Starts the server once; later calls return the same promise. */
  start(): Promise<void>;
  isRunning(): boolean;
  request<M extends OracleRequestMethod>(
    method: M, params: OracleRequests[M]['params'], token?: vscode.CancellationToken,
  ): Promise<OracleRequests[M]['result']>;
  readonly onActivity: vscode.Event<ActivityNotification>;
  stop(): Promise<void>;
}

export function createOracleClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): OracleClient {
  const activity = new vscode.EventEmitter<ActivityNotification>();
  let client: LanguageClient | undefined;
  let starting: Promise<void> | undefined;

  async function start(): Promise<void> {
    const lc = await import('vscode-languageclient/node');
    const module = context.asAbsolutePath('dist/server.js');
    const run = { module, transport: lc.TransportKind.ipc };
    const init: InitializationOptions = { settings: readServerSettings(), autoIndex: true };
    client = new lc.LanguageClient('contextOracle', 'Context Oracle', { run, debug: run }, {
      documentSelector: [],
      outputChannel: log,
      revealOutputChannelOn: lc.RevealOutputChannelOn.Never,
      initializationOptions: init,
      synchronize: { configurationSection: 'contextOracle' },
      // The server restarts after a crash (the client's default policy); the status bar shows the gap.
    });
    client.onNotification('contextOracle/activity', (a: ActivityNotification) => activity.fire(a));
    const t0 = performance.now();
    await client.start();
    log.info(`language server started in ${(performance.now() - t0).toFixed(0)} ms`);
  }

  return {
    start() {
      starting ??= start();
      return starting;
    },
    isRunning: () => client?.isRunning() ?? false,
    async request(method, params, token) {
      if (!starting) throw new Error('the Context Oracle language server is not running');
      await starting;
      return client!.sendRequest(method, params, token);
    },
    onActivity: activity.event,
    async stop() {
      if (client?.needsStop()) await client.stop();
    },
    dispose() {
      activity.dispose();
      void client?.dispose().catch(() => undefined);
    },
  };
}

