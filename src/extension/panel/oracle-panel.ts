/**
 * The Oracle panel: a webview view in the Context Oracle view container. The host side owns the conversation
 * session, runs asks through the language server (events streamed as notifications, the stop button cancels the
 * request), validates every message the webview sends, and queues what it posts until the webview says `ready`.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AskResult } from '../../core';
import type { HostMessage } from '../../protocol/webview';
import { askThroughServer } from '../ask-through-server';
import { errorMessage, isCancellation } from '../errors';
import type { OracleClient } from '../oracle-client';
import { makeNonce, panelHtml } from './panel-html';
import { parseWebviewMessage } from './panel-messages';

export const PANEL_VIEW_ID = 'contextOracle.panel';
const MAX_QUEUED = 1000;

export interface PanelDeps {
  extensionUri: vscode.Uri;
  client: OracleClient;
  log: vscode.LogOutputChannel;
  /** Opens a workspace file at 1-based lines. */
  open(path: string, line?: number, endLine?: number): Promise<void>;
  /** Panel actions that run a command (why, bundle, graph of a node). */
  run(command: 'why' | 'bundle' | 'graph', refId: string): Promise<void>;
}

export class OraclePanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: HostMessage[] = [];
  private readonly asks = new Map<string, vscode.CancellationTokenSource>();
  private readonly disposables: vscode.Disposable[] = [];
  private session = newSession();
  /** Every message posted (in order), for diagnostics and tests. */
  readonly posted: HostMessage['type'][] = [];

  constructor(private readonly deps: PanelDeps) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const { extensionUri } = this.deps;
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    const asset = (...p: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: asset('dist', 'webview.js'),
      styleUri: asset('media', 'panel.css'),
      codiconsUri: asset('dist', 'codicons', 'codicon.css'),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** Shows the panel (creating its webview if needed). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
  }

  post(message: HostMessage): void {
    this.posted.push(message.type);
    if (this.posted.length > MAX_QUEUED) this.posted.splice(0, this.posted.length - MAX_QUEUED);
    if (this.view && this.ready) {
      void this.view.webview.postMessage(message);
      return;
    }
    this.queue.push(message);
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Asks the oracle, streaming into the panel; resolves with the result, or undefined when stopped or failed. */
  async ask(question: string, explain = false): Promise<AskResult | undefined> {
    const id = `ask-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const { client, log } = this.deps;
    this.post({ type: 'askStarted', id, question, explain });
    const cts = new vscode.CancellationTokenSource();
    this.asks.set(id, cts);
    try {
      const params = { id, question, explain, session: this.session };
      const result = await askThroughServer(client, params, (event) => this.post({ type: 'askEvent', id, event }), cts.token);
      if (explain) await this.postSignals(id, question, cts.token);
      return result;
    } catch (e) {
      const cancelled = cts.token.isCancellationRequested || isCancellation(e);
      if (!cancelled) log.error(`ask failed: ${errorMessage(e)}`);
      this.post({ type: 'askEnded', id, cancelled, ...(cancelled ? {} : { error: errorMessage(e) }) });
      return undefined;
    } finally {
      this.asks.delete(id);
      cts.dispose();
    }
  }

  /** The oracle's explain data has no per-signal split; smart context (its code path) has, for the same question. */
  private async postSignals(id: string, question: string, token: vscode.CancellationToken): Promise<void> {
    try {
      const ctx = await this.deps.client.request('contextOracle/context', { question }, token);
      this.post({ type: 'signals', id, nodes: ctx.nodes.map((n) => ({ id: n.id, path: n.path, line: n.line, score: n.score, reason: n.reason, signals: { ...n.signals } })) });
    } catch (e) {
      this.deps.log.debug(`no signal scores for the explain view: ${errorMessage(e)}`);
    }
  }

  stop(id?: string): void {
    for (const [askId, cts] of this.asks) if (!id || askId === id) cts.cancel();
  }

  newConversation(): void {
    this.stop();
    this.session = newSession();
    this.post({ type: 'cleared' });
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.deps.log.warn(`dropped a malformed message from the Oracle panel: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        const queued = this.queue;
        this.queue = [];
        for (const m of queued) void this.view?.webview.postMessage(m);
        return;
      }
      case 'ask':
        void this.ask(message.question, message.explain);
        return;
      case 'stop':
        this.stop(message.id);
        return;
      case 'newConversation':
        this.newConversation();
        return;
      case 'open':
        this.deps.open(message.path, message.line, message.endLine).catch((e: unknown) => this.deps.log.warn(`open ${message.path}: ${errorMessage(e)}`));
        return;
      case 'why':
      case 'bundle':
      case 'graph':
        this.deps.run(message.type, message.refId).catch((e: unknown) => this.deps.log.warn(`${message.type} ${message.refId}: ${errorMessage(e)}`));
        return;
    }
  }

  dispose(): void {
    this.stop();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

function newSession(): string {
  return `panel-${randomBytes(6).toString('hex')}`;
}
