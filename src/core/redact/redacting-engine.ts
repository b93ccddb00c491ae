/**
 * The choke points of secret redaction (config `redactSecrets`, on by default), all applied once by createEngine:
 * - every engine result a host receives (search hits, definitions, references, repo maps, smart context, bundles,
 *   why, graph views, oracle events and answers, conversations) passes through `redactingEngine`;
 * - every request body the engine sends out through the HttpClient port (model prompts, conversation summaries,
 *   embeddings) passes through `redactingHttp`, so a model never sees what a host would not;
 * - every text the engine appends to a workspace file (the oracle's session log) passes through `redactingWriter`.
 * Results are walked as plain data (DTOs are plain and serialisable by invariant 3); untouched parts are shared.
 */
import type { Engine } from '../engine-api';
import type { HttpClient, WorkspaceWriter } from '../ports';
import type { AskEvent, AskResult } from '../oracle/types';
import type { ContextResult } from '../context/types';
import { countTokens } from '../tokens';
import { redactSecrets } from './secrets';

/** The distinct secrets replaced in one result (held only while the result is walked). */
export type RedactionTally = Set<string>;

/** `value` with every string in it redacted: arrays and plain objects are copied where something changed. */
export function redactValue<T>(value: T, tally: RedactionTally): T {
  if (typeof value === 'string') {
    const r = redactSecrets(value);
    for (const s of r.found) tally.add(s);
    return r.text as T;
  }
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = redactValue(value[i] as unknown, tally);
      if (v !== value[i]) (copy ??= value.slice())[i] = v;
    }
    return (copy ?? value) as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // not engine data (a Map, bytes, a class)
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const r = redactValue(v, tally);
    if (r !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return (copy ?? value) as T;
}

const redacted = async <T>(result: Promise<T>): Promise<T> => redactValue(await result, new Set());

function redactContext(result: ContextResult): ContextResult {
  const tally: RedactionTally = new Set();
  const out = redactValue(result, tally);
  // The budget was kept on the text as indexed; the count given is the text as sent.
  return { ...out, ...(out.text !== result.text ? { tokenCount: countTokens(out.text) } : {}), stats: { ...out.stats, redacted: tally.size } };
}

function redactAnswer(result: AskResult): AskResult {
  const tally: RedactionTally = new Set();
  const out = redactValue(result, tally);
  return out.explain ? { ...out, explain: { ...out.explain, redacted: tally.size } } : out;
}

async function* redactEvents(events: AsyncIterable<AskEvent>): AsyncGenerator<AskEvent> {
  for await (const e of events) yield e.type === 'done' ? { ...e, result: redactAnswer(e.result) } : redactValue(e, new Set());
}

/** The engine as hosts see it: the same methods, with secrets redacted from everything they return. */
export function redactingEngine(engine: Engine): Engine {
  return {
    ...engine,
    search: (query, options) => redacted(engine.search(query, options)),
    definitions: (symbol, options) => redacted(engine.definitions(symbol, options)),
    references: (symbol, options) => redacted(engine.references(symbol, options)),
    implementations: (symbol, options) => redacted(engine.implementations(symbol, options)),
    repoMap: (options) => redacted(engine.repoMap(options)),
    repoMapSlice: (files, options) => redacted(engine.repoMapSlice(files, options)),
    contextBundle: (refIds, options) => redacted(engine.contextBundle(refIds, options)),
    why: (refId, options) => redacted(engine.why(refId, options)),
    graphView: (refIds, options) => redacted(engine.graphView(refIds, options)),
    searchKnowledge: (query, options) => redacted(engine.searchKnowledge(query, options)),
    conceptQuery: (query, options) => redacted(engine.conceptQuery(query, options)),
    conversation: (session) => redacted(engine.conversation(session)),
    getContextForQuestion: async (question, options) => redactContext(await engine.getContextForQuestion(question, options)),
    ask: (question, options) => redactEvents(engine.ask(question, options)),
    askAll: async (question, options) => redactAnswer(await engine.askAll(question, options)),
  };
}

/** Outbound HTTP with secrets redacted from request bodies (JSON bodies string by string, so escapes stay valid). */
export function redactingHttp(http: HttpClient): HttpClient {
  return {
    request(request) {
      if (request.body === undefined) return http.request(request);
      let body: string;
      try {
        const parsed = JSON.parse(request.body) as unknown;
        const out = redactValue(parsed, new Set());
        body = out === parsed ? request.body : JSON.stringify(out);
      } catch {
        body = redactSecrets(request.body).text;
      }
      return http.request(body === request.body ? request : { ...request, body });
    },
  };
}

/** Appends to workspace files (the session log, which may be shared) with secrets redacted. */
export function redactingWriter(writer: WorkspaceWriter): WorkspaceWriter {
  return { append: (absPath, text) => writer.append(absPath, redactSecrets(text).text) };
}
