import * as vscode from 'vscode';
import { statusBarContent, type StatusView } from './status-view';

/** The status bar item: index state, freshness in the tooltip, click → Show Index Status (with Cancel while indexing). */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('contextOracle.status', vscode.StatusBarAlignment.Left, 10);
  private view: StatusView = { state: 'starting' };
  // The tooltip says "updated 3 min ago": refresh it now and then.
  private readonly timer = setInterval(() => this.render(), 30_000);

  constructor() {
    this.item.name = 'Context Oracle';
    this.item.command = 'contextOracle.showStatus';
    this.render();
    this.item.show();
  }

  update(view: StatusView): void {
    this.view = view;
    this.render();
  }

  private render(): void {
    const c = statusBarContent(this.view);
    this.item.text = c.text;
    // People click status items to see details, so a click always shows the status; while a run is under way that
    // notification carries the Cancel button (cancelling on a click lost runs people only meant to look at).
    void vscode.commands.executeCommand('setContext', 'contextOracle.indexing', this.view.state === 'indexing');
    const tooltip = new vscode.MarkdownString(c.tooltip);
    tooltip.supportThemeIcons = true;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = c.severity === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : c.severity === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
  }
}
