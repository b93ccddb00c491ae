/**
 * The Oracle panel: a webview view in the Context Oracle view container, holding the conversation, and an editor-area
 * tab (ResultsPanel) for bundles, why-trees, the repo map and the graph. The host side owns the conversation session
 * (its id kept in workspace state, so a window reload continues it and the stored conversation can be shown again),
 * runs asks through the language server (events streamed as notifications, the stop button cancels the request),
 * validates every message the webviews send, and queues what it posts until a webview says `ready`.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AskResult } from '../../core';
import type { HostMessage, HostMessageType, PastExchange, WebviewMessage } from '../../protocol/webview';
import { errorMessage, isCancellation } from '../errors';
import type { OracleClient } from '../oracle-client';
import { pastExchanges } from './conversation-history';
import { askForPanel } from './panel-ask';
import { parseWebviewMessage } from './panel-messages';
import { ResultsPanel } from './results-panel';
import { writeStarterGraph } from './starter-graph';
import { setUpWebview } from './webview-setup';

export const PANEL_VIEW_ID = 'contextOracle.panel';
const MAX_QUEUED = 1000;
/** Cards the host remembers for "Open in editor" (the oldest are forgotten first). */
const MAX_CARDS = 100;
const SESSION_KEY = 'contextOracle.panelSession';
/** Results too wide for the sidebar: they open in the editor-area tab. */
const EDITOR_RESULTS: ReadonlySet<HostMessageType> = new Set(['bundle', 'why', 'map', 'graph']);

export interface PanelDeps {
  extensionUri: vscode.Uri;
  client: OracleClient;
  log: vscode.LogOutputChannel;
  /** Opens a workspace file at 1-based lines. */
  open(path: string, line?: number, endLine?: number): Promise<void>;
  /** Panel actions that run a command (why, bundle, graph of a node). */
  run(command: 'why' | 'bundle' | 'graph', refId: string): Promise<void>;
  /** Workspace state: keeps the conversation's session id across window reloads. */
  state: vscode.Memento;
}

export class OraclePanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: HostMessage[] = [];
  private readonly asks = new Map<string, vscode.CancellationTokenSource>();
  private readonly disposables: vscode.Disposable[] = [];
  private session: string;
  private readonly results: ResultsPanel;
  /** What made each card, by key (results) or ask id, for "Open in editor". */
  private readonly cards = new Map<string, HostMessage[]>();
  private keys = 0;
  /** Card keys differ between extension hosts, so a card restored after a reload never names a newer one. */
  private readonly keyPrefix = `r-${randomBytes(3).toString('hex')}-`;
  /** Every message posted (in order), for diagnostics and tests. */
  readonly posted: HostMessage['type'][] = [];
  /** How the last sidebar webview started: from its saved state, or given the stored conversation (and how many). */
  lastRestore: { restored: boolean; historySent: number } | undefined;

  constructor(private readonly deps: PanelDeps) {
    const kept = deps.state.get<string>(SESSION_KEY);
    this.session = typeof kept === 'string' && /^panel-[0-9a-f]{12}$/.test(kept) ? kept : this.newSessionId();
    this.results = new ResultsPanel(deps.extensionUri, (raw, from) => this.receive(raw, from));
    this.disposables.push(this.results);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    setUpWebview(view.webview, this.deps.extensionUri, 'sidebar');
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw, 'sidebar')),
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
    const m = this.remember(message);
    if (EDITOR_RESULTS.has(m.type)) {
      this.results.show([m]);
      return;
    }
    this.toSidebar(m);
  }

  /**
   * Tells the panel's header which model answers now. Deferred a turn: the model settings' own listeners notify the
   * server first, and this request then follows that notification on the same connection.
   */
  refreshModel(): void {
    setTimeout(() => {
      if (!this.deps.client.isRunning()) return;
      this.deps.client.request('contextOracle/model', {}).then(
        (m) => this.toSidebar({ type: 'model', ...(m.model ? { model: m.model } : {}), ...(m.origin ? { origin: m.origin } : {}) }),
        (e: unknown) => this.deps.log.debug(`the model in use is unknown: ${errorMessage(e)}`),
      );
    }, 0);
  }

  /** Whether the editor-area tab's webview said `ready`. */
  resultsReady(): boolean {
    return this.results.isReady();
  }

  private toSidebar(message: HostMessage): void {
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
      const result = await askForPanel(client, params, (message) => this.post(message), cts.token);
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

  stop(id?: string): void {
    for (const [askId, cts] of this.asks) if (!id || askId === id) cts.cancel();
  }

  newConversation(): void {
    this.stop();
    this.session = this.newSessionId();
    this.post({ type: 'cleared' });
  }

  /** Gives a result its card key and keeps what made each card (results and asks) for "Open in editor". */
  private remember(message: HostMessage): HostMessage {
    let m = message;
    let key: string | undefined;
    switch (m.type) {
      case 'bundle': case 'why': case 'map': case 'search': case 'lint': case 'graph':
        key = m.key ?? `${this.keyPrefix}${++this.keys}`;
        m = { ...m, key };
        this.cards.set(key, [m]);
        break;
      case 'askStarted':
        this.cards.set(m.id, [m]);
        break;
      case 'askEvent':
        if (m.event.type === 'done') this.cards.get(m.id)?.push(m);
        break;
      case 'askEnded':
        this.cards.get(m.id)?.push(m);
        break;
      case 'cleared':
        this.cards.clear();
        break;
      default:
        break;
    }
    while (this.cards.size > MAX_CARDS) this.cards.delete(this.cards.keys().next().value!);
    return m;
  }

  /** The stored conversation's questions and answers, for a sidebar webview that starts with no cards. */
  private async sendHistory(): Promise<void> {
    let exchanges: PastExchange[] = [];
    try {
      const view = await this.deps.client.request('contextOracle/conversation', { session: this.session });
      exchanges = pastExchanges(view);
    } catch (e) {
      this.deps.log.debug(`no stored conversation to restore: ${errorMessage(e)}`);
    }
    this.lastRestore = { restored: false, historySent: exchanges.length };
    if (exchanges.length) this.toSidebar({ type: 'history', exchanges });
  }

  private receive(raw: unknown, from: 'sidebar' | 'editor'): WebviewMessage | undefined {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.deps.log.warn(`dropped a malformed message from the Oracle panel: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return undefined;
    }
    this.handle(message, from);
    return message;
  }

  private handle(message: WebviewMessage, from: 'sidebar' | 'editor'): void {
    switch (message.type) {
      case 'ready': {
        if (from === 'editor') return; // the results panel drains its own queue
        this.ready = true;
        const queued = this.queue;
        this.queue = [];
        for (const m of queued) void this.view?.webview.postMessage(m);
        if (message.restored) this.lastRestore = { restored: true, historySent: 0 };
        else void this.sendHistory();
        this.refreshModel();
        return;
      }
      case 'openInEditor': {
        // A card restored after a reload was made by an earlier extension host: its messages come from the webview.
        const messages = this.cards.get(message.key) ?? message.messages;
        if (messages) this.results.show(messages);
        else this.deps.log.warn(`Open in editor: the card ${message.key} is no longer kept`);
        return;
      }
      case 'writeStarterGraph':
        writeStarterGraph(this.deps.client, this.deps.log).then(() => undefined, (e: unknown) => {
          this.deps.log.error(`starter graph: ${errorMessage(e)}`);
          void vscode.window.showErrorMessage(`Context Oracle: could not write a starter graph: ${errorMessage(e)}`);
        });
        return;
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

  private newSessionId(): string {
    const id = `panel-${randomBytes(6).toString('hex')}`;
    void this.deps.state.update(SESSION_KEY, id);
    return id;
  }
}
