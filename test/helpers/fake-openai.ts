/**
 * A stand-in for a remote OpenAI-compatible model: an HTTP server on 127.0.0.1 speaking the chat completions wire
 * protocol (`POST /v1/chat/completions`), streamed as server-sent events (`data: {chunk}\n\n` … `data: [DONE]\n\n`)
 * when the request says `stream: true`, one JSON body otherwise. It records every request for the test to inspect.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
}

export interface RecordedRequest {
  path: string;
  authorization?: string;
  body: ChatCompletionRequest;
}

export interface FakeOpenAI {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** The reply text for a request (default: a reply citing [1]). */
  reply?: (req: ChatCompletionRequest) => string;
  /** Split the reply into this many characters per SSE chunk (default 8). */
  chunkChars?: number;
  /** Required bearer token; a missing or wrong one gets 401 like the real API. */
  apiKey?: string;
  /** Answer every request with this HTTP status and an OpenAI-style error body. */
  failWith?: number;
  /** Pause between streamed chunks, as a real model does between tokens (default 0). */
  delayMs?: number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function error(res: ServerResponse, status: number, message: string, type: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const reply = options.reply ?? (() => 'The evidence answers it: see [1].');
  const chunkChars = options.chunkChars ?? 8;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return error(res, 404, `Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error');
      let body: ChatCompletionRequest;
      try {
        body = JSON.parse(text) as ChatCompletionRequest;
      } catch {
        return error(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
      }
      requests.push({ path: req.url, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return error(res, 401, 'Incorrect API key provided.', 'invalid_request_error');
      if (options.failWith) return error(res, options.failWith, 'The server had an error while processing your request.', 'server_error');
      if (!Array.isArray(body.messages) || !body.model) return error(res, 400, "Missing required parameter: 'messages'.", 'invalid_request_error');
      const content = reply(body);
      const id = `chatcmpl-${requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          id, object: 'chat.completion', created, model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (let i = 0; i < content.length; i += chunkChars) {
        res.write(chunk({ content: content.slice(i, i + chunkChars) }, null));
        await new Promise((r) => (options.delayMs ? setTimeout(r, options.delayMs) : setImmediate(r)));
      }
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
