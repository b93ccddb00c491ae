/**
 * Inbound messages as the SDK will accept them, so that every tools/call gets an answer in our JSON error shape:
 * - a `_meta.progressToken` that is not a string or number made the SDK's stdio transport drop the whole message
 *   (no reply ever); it is removed (the call is answered, without progress notifications);
 * - `arguments` the SDK's record schema refuses (a `constructor` or `__proto__` key, not an object) got a -32603
 *   from the SDK; they travel under `_meta[RAW_ARGUMENTS]` instead, and the server validates them like any others;
 * - a line longer than the SDK reads (10 MiB) closed the transport for good; a tools/call that long keeps its id and
 *   name, loses its arguments, and says under `_meta[OVERSIZE]` how big it was, so the server refuses it properly.
 */
import { PassThrough, type Readable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/** `_meta` key carrying arguments the SDK's schema would have refused. */
export const RAW_ARGUMENTS = 'io.context-oracle/raw-arguments';
/** `_meta` key saying a tools/call was too long to pass on: its size and its longest string argument. */
export const OVERSIZE = 'io.context-oracle/oversize';

export interface Oversize {
  bytes: number;
  limit: number;
  /** The longest string argument, which is what usually makes a call that long. */
  argument?: string;
  chars?: number;
}

/** Longest line read at all; anything longer is skipped unparsed (its caller waits in vain, but the server lives). */
const MAX_LINE = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the SDK's `z.record` takes: a plain object without the keys its plain-object check trips on. */
function recordLike(v: unknown): boolean {
  return isRecord(v) && !Object.prototype.hasOwnProperty.call(v, 'constructor') && !Object.prototype.hasOwnProperty.call(v, '__proto__');
}

/** The message the SDK should see; `oversize` = the line's byte length when it is over what the SDK reads. */
export function normalizeInbound(message: unknown, oversize?: { bytes: number; limit: number }): unknown {
  if (!isRecord(message) || typeof message.method !== 'string' || !isRecord(message.params)) return message;
  let params = message.params;
  if ('_meta' in params && !isRecord(params._meta)) {
    const { _meta: _bad, ...rest } = params;
    params = rest;
  }
  const meta = params._meta as Json | undefined;
  if (meta && 'progressToken' in meta && typeof meta.progressToken !== 'string' && typeof meta.progressToken !== 'number') {
    const { progressToken: _bad, ...rest } = meta;
    params = { ...params, _meta: rest };
  }
  if (message.method === 'tools/call') {
    if (oversize) {
      const longest = longestArgument(params.arguments);
      const note: Oversize = { ...oversize, ...(longest ? { argument: longest[0], chars: longest[1] } : {}) };
      params = { ...params, arguments: {}, _meta: { ...(params._meta as Json | undefined), [OVERSIZE]: note } };
    } else if ('arguments' in params && params.arguments !== undefined && !recordLike(params.arguments)) {
      params = { ...params, arguments: {}, _meta: { ...(params._meta as Json | undefined), [RAW_ARGUMENTS]: params.arguments } };
    }
  }
  return params === message.params ? message : { ...message, params };
}

function longestArgument(args: unknown): [string, number] | undefined {
  if (!isRecord(args)) return undefined;
  let best: [string, number] | undefined;
  for (const [k, v] of Object.entries(args)) if (typeof v === 'string' && (!best || v.length > best[1])) best = [k, v.length];
  return best;
}

/**
 * `input` (stdin) as newline-delimited messages the SDK's stdio transport accepts: each line is parsed, normalized
 * and passed on (unchanged bytes when nothing changed; lines that are not JSON too, for the SDK to report).
 * `onDropped` hears about lines that cannot be passed on at all.
 */
export function inboundLines(input: Readable, onDropped: (why: string) => void, maxMessage = STDIO_DEFAULT_MAX_BUFFER_SIZE): Readable {
  const out = new PassThrough();
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const take = (b: Buffer): void => {
    if (skipping || !b.length) return;
    size += b.length;
    if (size > MAX_LINE) {
      skipping = true;
      parts = [];
      return;
    }
    parts.push(b);
  };
  const endLine = (): void => {
    const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    const bytes = size;
    size = 0;
    if (skipping) {
      skipping = false;
      onDropped(`a message over ${MAX_LINE} bytes was skipped unread`);
      return;
    }
    const passed = passOn(line, bytes > maxMessage ? { bytes, limit: maxMessage } : undefined);
    if (passed) out.write(passed);
    else onDropped(`a ${bytes}-byte message, over the ${maxMessage} bytes a message may have, was skipped`);
  };
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, nl));
      endLine();
      start = nl + 1;
    }
    take(chunk.subarray(start));
  });
  input.on('error', (e) => out.emit('error', e));
  input.on('end', () => out.end());
  return out;
}

/** The bytes to pass on for one line (with its newline), or undefined to skip it. */
function passOn(line: Buffer, oversize: { bytes: number; limit: number } | undefined): Buffer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return oversize ? undefined : Buffer.concat([line, Buffer.from('\n')]);
  }
  const normalized = normalizeInbound(parsed, oversize);
  if (normalized === parsed) return oversize ? undefined : Buffer.concat([line, Buffer.from('\n')]);
  const text = `${JSON.stringify(normalized)}\n`;
  return oversize && text.length > oversize.limit ? undefined : Buffer.from(text, 'utf8');
}
