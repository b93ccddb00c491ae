/**
 * The `@oracle` chat participant: a question is answered by the oracle (phases as progress, the answer streamed,
 * citations as references); `/context`, `/why`, `/map`, `/def` and `/refs` answer from the engine directly.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Citation } from '../../core';
import { askThroughServer } from '../ask-through-server';
import { errorMessage, isCancellation } from '../errors';
import { toUri } from '../navigation-bridge';
import type { OracleClient } from '../oracle-client';
import { codeSpan, definitionsText, escapeMarkdown, mapText, referencesText, whyText } from './chat-text';

export const PARTICIPANT_ID = 'contextOracle.oracle';

function citationLocation(c: { path?: string; line?: number; endLine?: number }): vscode.Location | vscode.Uri | undefined {
  const uri = c.path ? toUri(c.path) : undefined;
  if (!uri) return undefined;
  return c.line ? new vscode.Location(uri, new vscode.Range(c.line - 1, 0, (c.endLine ?? c.line) - 1, 0)) : uri;
}

async function askStreaming(client: OracleClient, question: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, session: string): Promise<void> {
  const id = `chat-${randomBytes(6).toString('hex')}`;
  let answered = false;
  const result = await askThroughServer(client, { id, question, session }, (e) => {
    if (e.type === 'phase') stream.progress(e.message);
    else if (e.type === 'answer') {
      answered = true;
      stream.markdown(e.delta);
    }
  }, token);
  if (!answered) stream.markdown(result.answer);
  for (const c of result.citations as Citation[]) {
    const loc = citationLocation(c);
    if (loc) stream.reference(loc);
  }
}

export function registerChatParticipant(context: vscode.ExtensionContext, client: OracleClient): vscode.Disposable | undefined {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return undefined;
  const session = `chat-${randomBytes(6).toString('hex')}`;
  const handler: vscode.ChatRequestHandler = async (request, _ctx, stream, token) => {
    const arg = request.prompt.trim();
    const need = (what: string): vscode.ChatResult => {
      stream.markdown(`Please give ${what}, e.g. \`@oracle /${request.command} ${what === 'a symbol' ? 'createServer' : 'greeting'}\`.`);
      return {};
    };
    try {
      switch (request.command) {
        case 'context': {
          if (!arg) return need('a question');
          stream.progress('Selecting the context…');
          const r = await client.request('contextOracle/context', { question: arg, format: 'markdown' }, token);
          stream.markdown(r.text || `_${escapeMarkdown(r.empty ?? 'Nothing relevant found.')}_`);
          for (const f of r.files.slice(0, 10)) {
            const loc = citationLocation({ path: f.path, line: f.line });
            if (loc) stream.reference(loc);
          }
          return { metadata: { command: 'context', tokens: r.tokenCount } };
        }
        case 'why': {
          if (!arg) return need('a node or symbol');
          const r = await client.request('contextOracle/why', { refId: arg }, token);
          stream.markdown(whyText(r));
          stream.button({ command: 'contextOracle.why', arguments: [arg], title: 'Show in the Oracle panel' });
          return { metadata: { command: 'why' } };
        }
        case 'map': {
          const r = await client.request('contextOracle/repoMap', arg ? { scope: arg } : {}, token);
          stream.markdown(mapText(r));
          return { metadata: { command: 'map' } };
        }
        case 'def': {
          if (!arg) return need('a symbol');
          const r = await client.request('contextOracle/definitions', { symbol: arg, limit: 10 }, token);
          stream.markdown(definitionsText(r));
          for (const d of r.results) {
            const loc = citationLocation({ path: d.path, line: d.line, endLine: d.endLine });
            if (loc) stream.reference(loc);
          }
          return { metadata: { command: 'def', source: r.results[0]?.source } };
        }
        case 'refs': {
          if (!arg) return need('a symbol');
          const r = await client.request('contextOracle/references', { symbol: arg, limit: 50 }, token);
          stream.markdown(referencesText(r));
          for (const x of r.results.slice(0, 20)) {
            const loc = citationLocation({ path: x.path, line: x.line });
            if (loc) stream.reference(loc);
          }
          return { metadata: { command: 'refs', source: r.source } };
        }
        default:
          if (!arg) return need('a question');
          await askStreaming(client, arg, stream, token, session);
          return { metadata: { command: 'ask' } };
      }
    } catch (e) {
      if (isCancellation(e) || token.isCancellationRequested) return {};
      const suggestions = (e as { data?: { detail?: { suggestions?: unknown } } }).data?.detail?.suggestions;
      const hint = Array.isArray(suggestions) && suggestions.length ? ` Did you mean ${suggestions.slice(0, 5).map((s) => codeSpan(String(s))).join(', ')}?` : '';
      return { errorDetails: { message: `${errorMessage(e)}${hint}` } };
    }
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg');
  return participant;
}
