/**
 * The extension's side of the language server: starts dist/server.js (IPC), forwards the server's log to the
 * output channel, and offers typed requests and activity events from src/protocol/language-server.ts.
 * vscode-languageclient is loaded on first start, not when the extension module loads, to keep activation short.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  CLIENT_REQUEST_METHODS, type InitializationOptions, type OracleClientNotificationMethod, type OracleClientNotifications,
  type OracleClientRequestMethod, type OracleClientRequests, type OracleNotificationMethod, type OracleNotifications,
  type OracleRequestMethod, type OracleRequests,
} from '../protocol/language-server';
import { readEditorModelConfig } from './model-config';
import { readServerSettings } from './settings';

export type ActivityNotification = OracleNotifications['contextOracle/activity'];

/** The client's answers to server requests: a mapped type, so a request declared in the protocol needs a handler. */
export type ClientRequestHandlers = {
  [M in OracleClientRequestMethod]: (params: OracleClientRequests[M]['params'], token: vscode.CancellationToken) => Promise<OracleClientRequests[M]['result']>;
};

export interface OracleClient extends vscode.Disposable {
  /** Starts the server once; later calls return the same promise. */
  start(): Promise<void>;
  isRunning(): boolean;
  request<M extends OracleRequestMethod>(
    method: M, params: OracleRequests[M]['params'], token?: vscode.CancellationToken,
  ): Promise<OracleRequests[M]['result']>;
  readonly onActivity: vscode.Event<ActivityNotification>;
  /** Any server notification; handlers registered before start() see every one. */
  onNotification<M extends OracleNotificationMethod>(method: M, handler: (params: OracleNotifications[M]) => void): vscode.Disposable;
  /** Fire-and-forget notification to the server (dropped when the server is not running). */
  notify<M extends OracleClientNotificationMethod>(method: M, params: OracleClientNotifications[M]): void;
  stop(): Promise<void>;
}

export function createOracleClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, serverRequests: ClientRequestHandlers): OracleClient {
  const activity = new vscode.EventEmitter<ActivityNotification>();
  const listeners = new Map<string, Set<(params: never) => void>>();
  const dispatch = (method: string, params: unknown): void => {
    for (const l of listeners.get(method) ?? []) {
      try {
        (l as (p: unknown) => void)(params);
      } catch (e) {
        log.error(`${method} handler failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  let client: LanguageClient | undefined;
  let starting: Promise<void> | undefined;

  async function start(): Promise<void> {
    const lc = await import('vscode-languageclient/node');
    const module = context.asAbsolutePath('dist/server.js');
    const run = { module, transport: lc.TransportKind.ipc };
    // The user's model travels apart from the synced settings (those merge in workspace settings).
    const init: InitializationOptions = { settings: readServerSettings(), model: readEditorModelConfig(context.workspaceState), autoIndex: true };
    client = new lc.LanguageClient('contextOracle', 'Context Oracle', { run, debug: run }, {
      documentSelector: [],
      outputChannel: log,
      revealOutputChannelOn: lc.RevealOutputChannelOn.Never,
      initializationOptions: init,
      synchronize: { configurationSection: 'contextOracle' },
      // The server restarts after a crash (the client's default policy); the status bar shows the gap.
    });
    client.onNotification('contextOracle/activity', (a: ActivityNotification) => activity.fire(a));
    for (const method of ['contextOracle/askEvent', 'contextOracle/freshness'] satisfies Exclude<OracleNotificationMethod, 'contextOracle/activity'>[]) {
      client.onNotification(method, (p: unknown) => dispatch(method, p));
    }
    for (const method of CLIENT_REQUEST_METHODS) {
      client.onRequest(method, (params: unknown, token: vscode.CancellationToken) =>
        (serverRequests[method] as (p: unknown, t: vscode.CancellationToken) => Promise<unknown>)(params, token));
    }
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
      // sendRequest takes rest parameters: an undefined token would be sent as a second positional parameter.
      return token ? client!.sendRequest(method, params, token) : client!.sendRequest(method, params);
    },
    onActivity: activity.event,
    onNotification(method, handler) {
      if (method === 'contextOracle/activity') return activity.event(handler as (a: ActivityNotification) => void);
      let set = listeners.get(method);
      if (!set) listeners.set(method, (set = new Set()));
      set.add(handler as (params: never) => void);
      return new vscode.Disposable(() => set.delete(handler as (params: never) => void));
    },
    notify(method, params) {
      if (!client?.isRunning()) return;
      client.sendNotification(method, params).catch((e: unknown) => log.warn(`${method} not sent: ${e instanceof Error ? e.message : String(e)}`));
    },
    async stop() {
      if (client?.needsStop()) await client.stop();
    },
    dispose() {
      activity.dispose();
      listeners.clear();
      void client?.dispose().catch(() => undefined);
    },
  };
}

