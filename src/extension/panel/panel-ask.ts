/**
 * The panel's ask: every event of the answer goes to the webview as it comes, the result (with its explain data
 * when Explain is on) last. The per-signal scores the Explain view shows are in that explain data: the panel asks
 * nothing else, so smart context runs once per question (it used to send a second `contextOracle/context`).
 */
import type * as vscode from 'vscode';
import type { AskResult } from '../../core';
import type { AskParams } from '../../protocol/language-server';
import type { HostMessage } from '../../protocol/webview';
import { askThroughServer } from '../ask-through-server';

export function askForPanel(
  client: Parameters<typeof askThroughServer>[0], params: AskParams, post: (message: HostMessage) => void, token?: vscode.CancellationToken,
): Promise<AskResult> {
  return askThroughServer(client, params, (event) => post({ type: 'askEvent', id: params.id, event }), token);
}
