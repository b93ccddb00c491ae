/**
 * The editor's own language model (VS Code's Language Model API) as an OpenAI-compatible endpoint the engine can
 * use: the model settings name a reserved host that never resolves (`.invalid`), and the HttpClient given to the
 * engine answers requests to it by asking the client to run the model (`contextOracle/lm/chat`). Nothing listens
 * on the network; any other URL goes to the real client.
 */
import type { ChatMessage, HttpClient, HttpRequest, HttpResponse, ModelSettings } from '../core';
import type { SendClientRequest } from './editor-navigation';

export const EDITOR_MODEL_BASE_URL = 'http://editor-language-model.invalid/v1';

/** Model settings that route the oracle to the editor's model named `name`. */
export function editorModelSettings(name: string): ModelSettings {
  return { baseUrl: EDITOR_MODEL_BASE_URL, model: name };
}

function jsonResponse(status: number, value: unknown): HttpResponse {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return { status, headers: { 'content-type': 'application/json' }, body: (async function* () { yield bytes; })() };
}

export function editorModelHttp(send: SendClientRequest, fallback: HttpClient): HttpClient {
  return {
    async request(request: HttpRequest): Promise<HttpResponse> {
      if (!request.url.startsWith(`${EDITOR_MODEL_BASE_URL}/`)) return fallback.request(request);
      const body = JSON.parse(typeof request.body === 'string' ? request.body : '{}') as { model?: string; messages?: ChatMessage[]; max_tokens?: number };
      try {
        const { text } = await send('contextOracle/lm/chat', {
          model: String(body.model ?? ''), messages: body.messages ?? [], ...(body.max_tokens ? { maxTokens: body.max_tokens } : {}),
        }, request.signal);
        // One JSON body (not a stream): the chat-completions client accepts either.
        return jsonResponse(200, { choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] });
      } catch (e) {
        return jsonResponse(502, { error: { message: `the editor's language model failed: ${e instanceof Error ? e.message : String(e)}` } });
      }
    },
  };
}
