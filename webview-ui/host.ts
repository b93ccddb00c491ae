/** The panel's only channel to the extension: typed messages from src/protocol/webview.ts. */
import type { WebviewMessage } from '../src/protocol/webview';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage: () => undefined };

export function send(message: WebviewMessage): void {
  api.postMessage(message);
}

export function openPath(path: string, line?: number, endLine?: number): void {
  send({ type: 'open', path, ...(line ? { line } : {}), ...(endLine ? { endLine } : {}) });
}
