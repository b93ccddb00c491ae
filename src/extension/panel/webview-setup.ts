/** One way to give a webview (the sidebar view or the editor-area tab) its options and its HTML shell. */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PanelMode } from '../../protocol/webview';
import { makeNonce, panelHtml } from './panel-html';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

export function setUpWebview(webview: vscode.Webview, extensionUri: vscode.Uri, mode: PanelMode): void {
  webview.options = webviewOptions(extensionUri);
  const asset = (...p: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  webview.html = panelHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce((n) => randomBytes(n)),
    scriptUri: asset('dist', 'webview.js'),
    styleUri: asset('media', 'panel.css'),
    codiconsUri: asset('dist', 'codicons', 'codicon.css'),
    mode,
  });
}
