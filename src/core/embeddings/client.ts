/**
 * A client for OpenAI-compatible `POST {baseUrl}/embeddings` endpoints (OpenAI, Azure-style proxies, Ollama,
 * llama.cpp, vLLM, LM Studio): `{model, input: string[], encoding_format: "float", dimensions?}` in,
 * `{data: [{index, embedding: number[]}]}` out. Errors become EngineErrors that say what to fix.
 */
import { EngineError } from '../errors';
import type { Environment, HttpClient } from '../ports';
import type { EmbeddingSettings } from '../context/types';

export interface EmbeddingPorts {
  http?: HttpClient;
  env?: Environment;
}

async function readBody(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

function endpoint(settings: EmbeddingSettings): string {
  if (!/^https?:\/\//.test(settings.baseUrl)) throw new EngineError('invalid_input', `embeddings base URL must start with http:// or https://, got "${settings.baseUrl}"`);
  return `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
}

/** Embeds `texts` in one request; vectors come back in input order. */
export async function embedBatch(ports: EmbeddingPorts, settings: EmbeddingSettings, texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
  if (!ports.http) throw new EngineError('invalid_input', 'embeddings need outbound HTTP, which this host does not provide');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.apiKeyEnv) {
    const key = ports.env?.get(settings.apiKeyEnv);
    if (!key) throw new EngineError('invalid_input', `the embeddings API key variable ${settings.apiKeyEnv} is not set`);
    headers.authorization = `Bearer ${key}`;
  }
  const body = JSON.stringify({
    model: settings.model, input: texts, encoding_format: 'float', ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
  });
  const res = await ports.http.request({ method: 'POST', url: endpoint(settings), headers, body, ...(signal ? { signal } : {}) });
  const text = await readBody(res.body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EngineError('invalid_input', `the embeddings endpoint answered ${res.status} with a body that is not JSON`);
  }
  if (res.status !== 200) {
    const message = (parsed as { error?: { message?: string } })?.error?.message ?? text.slice(0, 200);
    throw new EngineError('invalid_input', `the embeddings endpoint answered ${res.status}: ${message}`);
  }
  const data = (parsed as { data?: { index?: number; embedding?: unknown }[] }).data;
  if (!Array.isArray(data) || data.length !== texts.length) {
    throw new EngineError('invalid_input', `the embeddings endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${texts.length} inputs`);
  }
  const out = new Array<Float32Array>(texts.length);
  for (const [i, d] of data.entries()) {
    const index = typeof d.index === 'number' ? d.index : i;
    if (!Array.isArray(d.embedding) || !d.embedding.length || index < 0 || index >= texts.length) {
      throw new EngineError('invalid_input', 'the embeddings endpoint returned a malformed vector (base64 encodings are not supported)');
    }
    out[index] = Float32Array.from(d.embedding as number[]);
  }
  const dims = out[0]!.length;
  if (out.some((v) => !v || v.length !== dims)) throw new EngineError('invalid_input', 'the embeddings endpoint returned vectors of different sizes');
  return out;
}
