/**
 * The extension's one reader of an answer from the language server, for the panel and the chat participant: the
 * server streams the ask's events as `contextOracle/askEvent` notifications and answers the request with the last
 * one, `done`, which carries the result; this hands every event, `done` included, to `onEvent` in order.
 */
import type * as vscode from 'vscode';
import type { AskEvent, AskResult } from '../core';
import type { AskParams } from '../protocol/language-server';
import type { OracleClient } from './oracle-client';

export async function askThroughServer(
  client: Pick<OracleClient, 'request' | 'onNotification'>, params: AskParams, onEvent: (event: AskEvent) => void,
  token?: vscode.CancellationToken,
): Promise<AskResult> {
  const sub = client.onNotification('contextOracle/askEvent', (p) => { if (p?.id === params.id) onEvent(p.event); });
  try {
    const done = await client.request('contextOracle/ask', params, token);
    onEvent(done);
    return done.result;
  } finally {
    sub.dispose();
  }
}
