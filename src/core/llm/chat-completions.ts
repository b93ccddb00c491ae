/**
 * A client for OpenAI-compatible chat completions (`POST {baseUrl}/chat/completions`) over the HttpClient port,
 * streaming: text deltas are yielded as the server sends them. A server that ignores `stream: true` and answers
 * with one JSON body is accepted too.
 */
import { EngineError } from '../errors';
import type { HttpClient } from '../ports';
import { sseData } from './sse';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  baseUrl: string;
  model: string;
  apiKey?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

async function bodyText(body: AsyncIterable<Uint8Array>, limit = 4096): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > limit) break;
  }
  return text.slice(0, limit);
}

/** Streams the answer's text deltas. Throws EngineError `upstream_failed` on HTTP or protocol errors. */
export async function* streamChat(http: HttpClient, req: ChatRequest): AsyncIterable<string> {
  let res;
  try {
    res = await http.request({
      method: 'POST',
      url: chatCompletionsUrl(req.baseUrl),
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: req.model,
        messages: req.messages,
        stream: true,
        ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
        temperature: req.temperature ?? 0,
      }),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (e) {
    if (req.signal?.aborted) throw new EngineError('cancelled', 'the model call was cancelled');
    throw new EngineError('upstream_failed', `cannot reach ${chatCompletionsUrl(req.baseUrl)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (res.status < 200 || res.status >= 300) {
    const text = await bodyText(res.body).catch(() => '');
    let message = text.trim();
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch { /* not JSON: keep the text */ }
    // Redirects are not followed (the request carries code and a key): name where it pointed so the user can set it.
    const moved = res.status >= 300 && res.status < 400 ? ` (a redirect to ${res.headers.location ?? 'another URL'}; redirects are not followed: set that URL yourself if you trust it)` : '';
    throw new EngineError('upstream_failed', `the model endpoint answered HTTP ${res.status}${moved}${message && !moved ? `: ${message.slice(0, 300)}` : ''}`, { status: res.status });
  }
  if (!(res.headers['content-type'] ?? '').includes('text/event-stream')) {
    const text = await bodyText(res.body, 4 * 1024 * 1024);
    const content = parseJson(text)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new EngineError('upstream_failed', 'the model endpoint answered without a message');
    yield content;
    return;
  }
  for await (const data of sseData(res.body)) {
    if (data.trim() === '[DONE]') return;
    const event = parseJson(data);
    if (!event) throw new EngineError('upstream_failed', `the model endpoint sent an event that is not JSON: ${data.slice(0, 120)}`);
    if (event.error) throw new EngineError('upstream_failed', `the model endpoint reported: ${event.error.message ?? 'an error'}`);
    const delta = event.choices?.[0]?.delta?.content;
    if (typeof delta === 'string' && delta) yield delta;
  }
}

interface CompletionChunk {
  choices?: { delta?: { content?: string | null }; message?: { content?: string } }[];
  error?: { message?: string };
}

function parseJson(text: string): CompletionChunk | undefined {
  try {
    return JSON.parse(text) as CompletionChunk;
  } catch {
    return undefined;
  }
}

/** The whole answer of a streamed call (for summaries). */
export async function completeChat(http: HttpClient, req: ChatRequest): Promise<string> {
  let out = '';
  for await (const delta of streamChat(http, req)) out += delta;
  return out;
}
