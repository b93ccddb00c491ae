/** The panel's only channel to the extension: typed messages from src/protocol/webview.ts, and its saved state. */
import type { WebviewMessage } from '../src/protocol/webview';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

let memory: unknown;
const api: VsCodeApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi()
  : { postMessage: () => undefined, getState: () => memory, setState: (s) => { memory = s; } };

export function send(message: WebviewMessage): void {
  api.postMessage(message);
}

export function openPath(path: string, line?: number, endLine?: number): void {
  send({ type: 'open', path, ...(line ? { line } : {}), ...(endLine ? { endLine } : {}) });
}

/** What VS Code keeps for this webview across hides and window reloads. */
export function savedState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
