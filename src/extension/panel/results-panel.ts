/**
 * The editor-area tab for results too wide for the sidebar: bundles, why-trees, the repo map and the graph, and any
 * sidebar card the user opens in the editor. Same webview bundle, protocol and CSP as the sidebar; its messages go to
 * the same handler; what it posts is queued until its webview says `ready`. After a window reload VS Code restores
 * the tab through the serializer and the webview rebuilds its cards from its own saved state.
 */
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../protocol/webview';
import { setUpWebview, webviewOptions } from './webview-setup';

export const RESULTS_VIEW_TYPE = 'contextOracle.results';
const MAX_QUEUED = 1000;

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private queue: HostMessage[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, private readonly receive: (raw: unknown, from: 'editor') => WebviewMessage | undefined) {
    this.disposables.push(vscode.window.registerWebviewPanelSerializer(RESULTS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => {
        panel.webview.options = webviewOptions(extensionUri);
        this.adopt(panel);
      },
    }));
  }

  /** Shows messages in the tab, creating it beside the editors the first time, without taking the focus. */
  show(messages: HostMessage[]): void {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(RESULTS_VIEW_TYPE, 'Context Oracle', { viewColumn: vscode.ViewColumn.Active, preserveFocus: true },
        { ...webviewOptions(this.extensionUri), retainContextWhenHidden: true, enableFindWidget: true });
      this.adopt(panel);
    } else this.panel.reveal(undefined, true);
    for (const m of messages) this.post(m);
  }

  isReady(): boolean {
    return this.ready;
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    panel.iconPath = { light: vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg'), dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg') };
    setUpWebview(panel.webview, this.extensionUri, 'editor');
    const subs = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const m = this.receive(raw, 'editor');
        if (m?.type === 'ready') {
          this.ready = true;
          const queued = this.queue;
          this.queue = [];
          for (const q of queued) void panel.webview.postMessage(q);
        }
      }),
      panel.onDidDispose(() => {
        if (this.panel === panel) {
          this.panel = undefined;
          this.ready = false;
          this.queue = [];
        }
        for (const s of subs) s.dispose();
      }),
    ];
  }

  private post(message: HostMessage): void {
    if (this.panel && this.ready) {
      void this.panel.webview.postMessage(message);
      return;
    }
    this.queue.push(message);
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}
