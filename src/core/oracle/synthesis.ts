/**
 * Synthesis through a configured OpenAI-compatible endpoint, streamed. The API key is read through the Environment
 * port from the variable the settings name. If the model cannot be used the caller falls back to the extractive
 * answer and says why; a model failure never loses the evidence already found.
 */
import { EngineError } from '../errors';
import { completeChat, streamChat, type ChatMessage } from '../llm/chat-completions';
import type { Environment, HttpClient } from '../ports';
import type { Summariser } from './conversation';
import type { ModelSettings } from './types';

export const DEFAULT_MAX_OUTPUT_TOKENS = 800;

export interface ModelAccess {
  http?: HttpClient;
  env?: Environment;
}

/** The API key, or why the model cannot be called. */
export function resolveKey(access: ModelAccess, model: ModelSettings): { key?: string; problem?: string } {
  if (!access.http) return { problem: 'this host cannot make HTTP requests' };
  if (!model.apiKeyEnv) return {};
  const key = access.env?.get(model.apiKeyEnv);
  return key ? { key } : { problem: `the environment variable ${model.apiKeyEnv} (model.apiKeyEnv) is not set` };
}

export function streamAnswer(access: ModelAccess, model: ModelSettings, key: string | undefined, messages: ChatMessage[], signal?: AbortSignal): AsyncIterable<string> {
  if (!access.http) throw new EngineError('upstream_failed', 'this host cannot make HTTP requests');
  return streamChat(access.http, {
    baseUrl: model.baseUrl, model: model.model, messages,
    maxTokens: model.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
    ...(key ? { apiKey: key } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** Conversation compression by the model (made lazily, when a conversation is read over its threshold). */
export function modelSummariser(access: ModelAccess, model: ModelSettings, key: string | undefined): Summariser {
  return async (previous, exchanges) => {
    const transcript = exchanges.map((x) => `#${x.id} [${x.tool}] ${x.input}\n${x.output}`).join('\n\n');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Compress a developer conversation about a codebase. Keep every file path, line number, symbol name, decision and open question; drop pleasantries. At most 200 words, as bullet points.' },
      { role: 'user', content: `${previous ? `Summary so far:\n${previous}\n\n` : ''}Exchanges to fold in:\n${transcript}` },
    ];
    return (await completeChat(access.http!, {
      baseUrl: model.baseUrl, model: model.model, messages, maxTokens: 400, ...(key ? { apiKey: key } : {}),
    })).trim();
  };
}
