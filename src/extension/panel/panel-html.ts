/**
 * The Oracle panel's HTML shell: a strict Content Security Policy (nothing by default; scripts only with this load's
 * nonce; styles, fonts and images only from the extension's own webview resources) and the bundled script. All
 * content is rendered by the script from messages, never put into this HTML. No 'vscode' import (tested in Node).
 */
import type { PanelMode } from '../../protocol/webview';

export interface PanelHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconsUri: string;
  /** The sidebar (conversation) or the editor-area tab (results at full width). */
  mode: PanelMode;
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function panelCsp(o: Pick<PanelHtmlOptions, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
  ].join('; ');
}

export function panelHtml(o: PanelHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(o))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.codiconsUri)}" id="vscode-codicon-stylesheet" nonce="${attr(o.nonce)}">
<link rel="stylesheet" href="${attr(o.styleUri)}" nonce="${attr(o.nonce)}">
<title>Oracle</title>
</head>
<body data-mode="${o.mode === 'editor' ? 'editor' : 'sidebar'}">
<div id="app" role="main"></div>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}

/** 32 characters from [A-Za-z0-9], from a cryptographic source. */
export function makeNonce(random: (n: number) => Uint8Array): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...random(32)].map((b) => chars[b % chars.length]).join('');
}
