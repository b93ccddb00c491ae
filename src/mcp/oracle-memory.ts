/**
 * Plugs an MCP session into the oracle's conversation memory: every successful tool call becomes an exchange of the
 * session's shared conversation (engine.rememberExchange), so a later ask_oracle can build on it, e.g. resolve "it"
 * in "where is it used?" to the symbol an earlier find_definition looked up. ask_oracle records its own exchanges.
 */
import type { Engine } from '../core';
import type { SessionCall, SessionItem, SessionMemory } from './session';

/** Arguments that only shape paging, not what was asked. */
const PAGING = new Set(['cursor', 'limit', 'max_tokens']);
/** Tools whose subject is a symbol name given as an argument. */
const SYMBOL_ARGS = ['symbol', 'ref_id'];

export function oracleMemory(engine: Pick<Engine, 'rememberExchange'>, session: string): SessionMemory {
  return {
    onToolCall(call, items) {
      if (!call.ok || call.tool === 'ask_oracle' || call.tool === 'index_status') return;
      engine.rememberExchange(session, {
        tool: call.tool,
        input: inputOf(call),
        output: gist(items),
        files: [...new Set(items.map((i) => i.path).filter((p): p is string => !!p))].slice(0, 10),
        symbols: symbolsOf(call, items),
      });
    },
  };
}

function inputOf(call: SessionCall): string {
  const shown = Object.entries(call.args).filter(([k, v]) => !PAGING.has(k) && v !== undefined);
  return shown.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');
}

/** One sentence the conversation summary can keep: how many items and the first few places. */
function gist(items: readonly SessionItem[]): string {
  if (!items.length) return 'Nothing found.';
  const places = items.slice(0, 8).map((i) => (i.symbol ? `${i.symbol} at ${i.path ?? i.ref}${i.line ? `:${i.line}` : ''}` : i.ref));
  return `${items.length} result${items.length === 1 ? '' : 's'}: ${places.join('; ')}.`;
}

/** The symbol asked about first (the conversation's subject for follow-ups), then symbols returned. */
function symbolsOf(call: SessionCall, items: readonly SessionItem[]): string[] {
  const asked = SYMBOL_ARGS.map((k) => call.args[k]).filter((v): v is string => typeof v === 'string');
  return [...new Set([...asked, ...items.map((i) => i.symbol).filter((s): s is string => !!s)])].slice(0, 10);
}
