/**
 * Opaque paging cursors. A cursor names the tool, where the next page starts, and a fingerprint of the arguments
 * that shape the result list, so a cursor replayed with different arguments is refused instead of paging the wrong
 * list. `limit` and `max_tokens` are left out of the fingerprint: a caller may change page size between pages.
 */
import { createHash } from 'node:crypto';
import { ToolError } from './errors';

/** Arguments that only size a page; everything else identifies the list being paged. */
const PAGE_ARGS = new Set(['cursor', 'limit', 'max_tokens']);

export interface CursorState {
  /** Index of the first item (or line, for text) of the next page. */
  offset: number;
}

export function argsFingerprint(tool: string, args: Record<string, unknown>): string {
  const shaping = Object.keys(args).filter((k) => !PAGE_ARGS.has(k) && args[k] !== undefined).sort();
  const canonical = JSON.stringify([tool, shaping.map((k) => [k, args[k]])]);
  return createHash('sha1').update(canonical).digest('base64url').slice(0, 10);
}

export function encodeCursor(fingerprint: string, state: CursorState): string {
  return Buffer.from(JSON.stringify({ f: fingerprint, o: state.offset })).toString('base64url');
}

/** The state a cursor carries; undefined cursor = first page. Throws invalid_input for foreign or damaged cursors. */
export function decodeCursor(cursor: string | undefined, fingerprint: string, tool: string): CursorState {
  if (cursor === undefined || cursor === '') return { offset: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const p = parsed as { f?: unknown; o?: unknown } | undefined;
  if (!p || typeof p.f !== 'string' || typeof p.o !== 'number' || !Number.isInteger(p.o) || p.o < 0) {
    throw new ToolError('invalid_input', `\`cursor\` is not a cursor this server issued; call ${tool} without \`cursor\` to start from the first page`);
  }
  if (p.f !== fingerprint) {
    throw new ToolError(
      'invalid_input',
      `\`cursor\` belongs to a ${tool} call with different arguments; repeat exactly the arguments of the call that returned it (only limit and max_tokens may change), or drop \`cursor\` to start over`,
    );
  }
  return { offset: p.o };
}
