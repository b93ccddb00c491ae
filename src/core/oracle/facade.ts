/**
 * The oracle's engine methods, built with its peers passed in: code retrieval goes through smart context
 * (getContextForQuestion), code navigation (definitions, references) and the repo map (slice); the index answers the
 * relevance statistics. Each question is one index request: its freshness check runs once and every peer reads the
 * same database.
 */
import type { EngineConfig } from '../config';
import type { ContextMethods } from '../context/service';
import { EngineError } from '../errors';
import type { NavigationMethods } from '../navigation/service';
import type { EngineDeps } from '../ports';
import type { IndexRequest, IndexRequests } from '../store/index-request';
import type { CodeHit, CodeRetrieval } from './code-retrieval';
import { createIndexCodeRetrieval } from './code-index';
import type { ConversationView, Exchange, ExchangeInput } from './conversation';
import { createOracle } from './oracle';
import type { AskEvent, AskOptions, AskResult, ExplainSignalRow } from './types';

export interface OracleMethods {
  /** Ask a question: a stream of plain events (phases, sources, evidence, answer deltas, citations, done). */
  ask(question: string, options?: AskOptions): AsyncIterable<AskEvent>;
  /** `ask`, collected into its result. */
  askAll(question: string, options?: AskOptions): Promise<AskResult>;
  /** Record another tool's exchange (find_definition, search_code, …) in a session's shared conversation. */
  rememberExchange(session: string, exchange: ExchangeInput): Exchange;
  /** A session's conversation as a model sees it (older exchanges compressed lazily, on this read). */
  conversation(session: string): Promise<ConversationView | undefined>;
}

/** Names that are not symbols, or unknown: no exact answer, the other paths still run. */
async function orNone<T>(run: () => Promise<T[]>): Promise<T[]> {
  try {
    return await run();
  } catch (e) {
    if (EngineError.is(e, 'not_found') || EngineError.is(e, 'invalid_input')) return [];
    throw e;
  }
}

/** The capabilities the oracle answers from. */
export interface OraclePeers {
  requests: IndexRequests;
  context: ContextMethods;
  navigation: NavigationMethods;
}

/** Code retrieval for one question: every capability reads the question's own index request. */
function codeFor(request: IndexRequest, { context, navigation }: OraclePeers): CodeRetrieval {
  // Kept for the explain data: the panel shows these scores, and used to run smart context a second time for them.
  let signals: ExplainSignalRow[] = [];
  return createIndexCodeRetrieval(request.db, {
    prepare: () => request.fresh(),
    async context(question, maxTokens, signal) {
      const result = await context.getContextForQuestion(request, question, { maxTokens, ...(signal ? { signal } : {}) });
      signals = result.nodes.map((n) => ({ id: n.id, path: n.path, line: n.line, score: n.score, reason: n.reason, signals: { ...n.signals } }));
      if (result.empty) return [];
      return result.nodes.map((n): CodeHit => ({
        path: n.path, line: n.line, endLine: n.endLine, kind: n.kind, score: n.score, method: 'context', via: `smart context, ${n.reason}`,
        ...(n.symbol ? { symbol: n.symbol } : {}),
      }));
    },
    contextSignals: () => signals,
    definitions: (name, limit, signal) => orNone(async () => (await navigation.definitions(request, name, { limit, ...(signal ? { signal } : {}) })).results
      .map((d, i): CodeHit => ({
        path: d.path, line: d.line, endLine: Math.max(d.line, d.endLine), kind: d.kind, symbol: d.qualifiedName, signature: d.signature,
        score: 1 - i * 0.1, method: 'definition', via: d.source === 'lsp' ? 'language server' : 'index',
      }))),
    references: (name, limit, signal) => orNone(async () => {
      const refs = await navigation.references(request, name, { limit, ...(signal ? { signal } : {}) });
      return refs.results.map((r, i): CodeHit => ({
        path: r.path, line: r.line, endLine: r.line, focusLine: r.line, kind: r.kind, score: 1 - i / Math.max(refs.results.length, 1),
        method: 'references', via: r.source === 'lsp' ? 'language server' : `index, ${r.proximity}`,
        ...(r.inSymbol ? { symbol: r.inSymbol } : {}),
      }));
    }),
    async repoMapSlice(files, maxTokens) {
      const map = await navigation.repoMapSlice(request, files, { maxTokens });
      return map.text || undefined;
    },
  });
}

export function createOracleFacade(deps: EngineDeps, cfg: EngineConfig, peers: OraclePeers): OracleMethods {
  const oracle = createOracle(deps, cfg, (question) => {
    const request = peers.requests.open(question);
    return { code: codeFor(request, peers), close: () => request.close() };
  });
  return {
    ask: oracle.ask,
    askAll: oracle.askAll,
    rememberExchange: oracle.remember,
    conversation: oracle.conversation,
  };
}
