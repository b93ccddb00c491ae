/**
 * The HttpClient port over Node's global fetch (undici): the response body is handed on as a stream. Redirects are
 * never followed: a request carries code and often a key, and it goes to the host the user named or nowhere (fetch
 * drops Authorization on a cross-origin redirect but would still send the body there). A 3xx reaches the caller as
 * a status to report.
 */
import type { HttpClient, HttpResponse } from '../core';

export const nodeHttpClient: HttpClient = {
  async request(request): Promise<HttpResponse> {
    const res = await fetch(request.url, {
      method: request.method,
      redirect: 'manual',
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => { headers[key.toLowerCase()] = value; });
    return { status: res.status, headers, body: bodyChunks(res.body) };
  },
};

async function* bodyChunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
