/**
 * Tool errors: every failure a tool call can meet becomes a tool result with `isError: true` and a JSON body
 * `{code, message, suggestions?}`, so the calling model reads it like any answer and can act on it (fix an argument,
 * pick a suggested name, wait for the index). Protocol-level errors are kept for broken JSON-RPC only.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EngineError } from '../core';

/** The codes a model sees. Engine codes outside this set are mapped onto it (see toolErrorFrom). */
export type ToolErrorCode = 'required' | 'invalid_input' | 'not_found' | 'not_initialized' | 'busy' | 'cancelled' | 'internal';

export interface ToolErrorBody {
  code: ToolErrorCode;
  message: string;
  suggestions?: string[];
}

/** Thrown by tools and the server's own checks; turned into an error result by `errorResult`. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(readonly code: ToolErrorCode, message: string, readonly suggestions?: string[]) {
    super(message);
  }

  body(): ToolErrorBody {
    return { code: this.code, message: this.message, ...(this.suggestions?.length ? { suggestions: this.suggestions } : {}) };
  }
}

/** What the index is doing, so a not_initialized error can say "wait" rather than "build it". */
export interface IndexHint {
  /** e.g. "parsing 120/390 files"; set while an index run is under way. */
  running?: string;
  /** Why the last background index run failed. */
  failed?: string;
  autoIndex: boolean;
  root: string;
}

/** Any thrown value → a ToolError a model can act on. Unknown errors keep their message under `internal`. */
export function toolErrorFrom(e: unknown, hint: IndexHint): ToolError {
  if (e instanceof ToolError) return e;
  if (EngineError.is(e)) {
    const suggestions = Array.isArray(e.detail?.suggestions) ? (e.detail.suggestions as unknown[]).map(String) : undefined;
    switch (e.code) {
      case 'required':
      case 'invalid_input':
      case 'not_found':
      case 'cancelled':
        return new ToolError(e.code, e.message, suggestions);
      case 'outside_workspace':
        return new ToolError('invalid_input', e.message, suggestions);
      case 'not_initialized':
      case 'index_corrupt':
        return new ToolError('not_initialized', notInitializedMessage(hint, e.message));
      case 'index_incompatible':
        // An index from another version (imported, or opened with --db): unusable here until rebuilt, which its
        // message says how to do; `internal` would read as a bug.
        return new ToolError('not_initialized', e.message);
      case 'index_locked':
        return new ToolError('busy', `${e.message}; another process is writing the index, call again in a few seconds`);
      default:
        return new ToolError('internal', e.message);
    }
  }
  return new ToolError('internal', e instanceof Error ? e.message : String(e));
}

function notInitializedMessage(hint: IndexHint, engineMessage: string): string {
  if (hint.running) return `the workspace is still being indexed (${hint.running}); call this tool again in a few seconds`;
  const build = `run \`context-oracle index --root ${JSON.stringify(hint.root)}\` in a terminal`;
  if (hint.failed) return `there is no usable index: background indexing failed (${hint.failed}); ${build} to see the full error`;
  if (!hint.autoIndex) return `there is no index yet and this server was started with --no-auto-index; ${build}, then call again`;
  return `${engineMessage}; ${build}`;
}

/** Longest error message sent; a longer one (an engine message quoting a huge argument) keeps its head and tail. */
export const MAX_MESSAGE_CHARS = 1_000;
/** Most suggestions sent, and the longest each may be. */
const MAX_SUGGESTIONS = 10;
const MAX_SUGGESTION_CHARS = 200;

/**
 * How an error quotes a caller's input: JSON-quoted, at most `max` characters of it, and its length when cut, so a
 * 400 KB argument costs a few tokens in the error instead of 100k.
 */
export function quoteInput(input: string, max = 80): string {
  if (input.length <= max) return JSON.stringify(input);
  return `${JSON.stringify(input.slice(0, max))}… (${input.length.toLocaleString('en-US')} characters)`;
}

/** Keeps the head and tail of an overlong message (what went wrong is usually first, what to do last). */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor((max - 40) / 2);
  return `${text.slice(0, keep)} … [${(text.length - 2 * keep).toLocaleString('en-US')} characters cut] … ${text.slice(-keep)}`;
}

/** The error as sent: every message within MAX_MESSAGE_CHARS, whatever the input it quotes (a few hundred tokens). */
export function errorResult(error: ToolError): CallToolResult {
  const body = error.body();
  const sent: ToolErrorBody = {
    code: body.code,
    message: clip(body.message, MAX_MESSAGE_CHARS),
    ...(body.suggestions ? { suggestions: body.suggestions.slice(0, MAX_SUGGESTIONS).map((s) => clip(s, MAX_SUGGESTION_CHARS)) } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(sent) }] };
}
