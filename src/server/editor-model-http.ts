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

/**
 * The parts of the editor model's answers under way: the client sends each part as a `contextOracle/lm/chunk`
 * notification naming the stream its `contextOracle/lm/chat` request opened, before it answers that request.
 */
export class LmStreams {
  private readonly open = new Map<string, (text: string) => void>();
  private next = 0;

  start(onChunk: (text: string) => void): string {
    const id = `lm-${++this.next}`;
    this.open.set(id, onChunk);
    return id;
  }

  end(id: string): void {
    this.open.delete(id);
  }

  /** A chunk notification from the client; one for a stream that is not open (or malformed) is dropped. */
  chunk(raw: unknown): void {
    const c = raw as { stream?: unknown; text?: unknown } | undefined;
    if (typeof c?.stream === 'string' && typeof c.text === 'string' && c.text) this.open.get(c.stream)?.(c.text);
  }
}

const sse = (value: unknown): Uint8Array => new TextEncoder().encode(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);

export function editorModelHttp(send: SendClientRequest, fallback: HttpClient, streams: LmStreams): HttpClient {
  return {
    async request(request: HttpRequest): Promise<HttpResponse> {
      if (!request.url.startsWith(`${EDITOR_MODEL_BASE_URL}/`)) return fallback.request(request);
      const body = JSON.parse(typeof request.body === 'string' ? request.body : '{}') as { model?: string; messages?: ChatMessage[]; max_tokens?: number };
      // The answer streams: each part the editor's model reports becomes a server-sent event as it arrives, so the
      // panel shows the answer growing instead of all at once at the end.
      const parts: string[] = [];
      let received = false;
      let finished = false;
      let failure: string | undefined;
      let wake: (() => void) | undefined;
      const id = streams.start((text) => { received = true; parts.push(text); wake?.(); });
      void send('contextOracle/lm/chat', {
        model: String(body.model ?? ''), messages: body.messages ?? [], stream: id, ...(body.max_tokens ? { maxTokens: body.max_tokens } : {}),
      }, request.signal).then(
        // A client that sent no parts answered whole.
        ({ text }) => { if (!received && text) parts.push(text); },
        (e: unknown) => { failure = `the editor's language model failed: ${e instanceof Error ? e.message : String(e)}`; },
      ).finally(() => { finished = true; streams.end(id); wake?.(); });
      const waitForMore = (): Promise<void> => new Promise<void>((r) => { wake = r; });
      // A failure before any text is an HTTP error, as from any endpoint; after some text, an error event.
      while (!parts.length && !finished) await waitForMore();
      if (failure && !parts.length) return jsonResponse(502, { error: { message: failure } });
      async function* events(): AsyncGenerator<Uint8Array> {
        for (;;) {
          while (parts.length) yield sse({ choices: [{ index: 0, delta: { content: parts.shift() } }] });
          if (finished) break;
          await waitForMore();
        }
        yield failure ? sse({ error: { message: failure } }) : sse('[DONE]');
      }
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: events() };
    },
  };
}
