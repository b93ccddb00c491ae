/**
 * Smart context for a question: entities → symbol, full-text, vector and graph paths → deterministic rerank → cut-off
 * → the fitted model re-orders what passed (fitted-rank.ts) → (optionally a configured second reranker) → nodes with
 * class context and call sites → token budget → text.
 */
import { EngineError, throwIfAborted } from '../errors';
import type { Logger } from '../ports';
import type { Question } from '../question/analysis';
import { chunkTextOf } from '../store/chunk-texts';
import type { IndexDatabase } from '../store/database';
import { countTokens } from '../tokens';
import { fitContext } from './budget';
import { FITTED_DEPTH, fittedRank } from './fitted-rank';
import { findCallSites } from './call-sites';
import { collectEvidence, type Evidence, type VectorHit } from './evidence';
import { markdownFormatter } from './format-markdown';
import { muFormatter } from './format-mu';
import { rankedHead, type ScoredFile } from './rank-files';
import { selectNodes } from './select-nodes';
import { DEFAULT_WEIGHTS, type ContextFormat, type ContextOptions, type ContextResult, type ContextWeights } from './types';

export const DEFAULT_MAX_TOKENS = 8000;
export const DEFAULT_MIN_RELEVANCE = 0.1;
export const DEFAULT_MAX_FILES = 20;
const FORMATS: readonly ContextFormat[] = ['mu', 'json', 'markdown'];
const RERANK_FILES = 20;

/** The vector path, when an embeddings endpoint is configured: chunk id → file and similarity. */
export type VectorSearch = (db: IndexDatabase, question: string, signal?: AbortSignal) => Promise<Map<number, VectorHit>>;

export interface ContextDeps {
  logger: Logger;
  clock: { now(): number };
  vectors?: VectorSearch;
}

function validate(question: Question, options: ContextOptions): { budget: number; format: ContextFormat; weights: ContextWeights } {
  if (!question.text.trim()) throw new EngineError('required', 'the question is empty');
  const budget = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(budget) || budget < 1) throw new EngineError('invalid_input', `maxTokens must be a positive integer, got ${budget}`);
  const format = options.format ?? 'mu';
  if (!FORMATS.includes(format)) throw new EngineError('invalid_input', `unknown context format "${format}" (use ${FORMATS.join(', ')})`);
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  for (const [k, v] of Object.entries(weights)) {
    if (!Number.isFinite(v) || v < 0) throw new EngineError('invalid_input', `weight ${k} must be a non-negative number, got ${v}`);
  }
  return { budget, format, weights };
}

/** Smart context for a question its request analysed once (question/analysis.ts). */
export async function getContextForQuestion(db: IndexDatabase, asked: Question, options: ContextOptions, deps: ContextDeps): Promise<ContextResult> {
  const started = deps.clock.now();
  const { budget, format, weights } = validate(asked, options);
  const question = asked.text;
  const minRelevance = options.minRelevance ?? DEFAULT_MIN_RELEVANCE;
  const maxFiles = Math.max(1, options.maxFiles ?? DEFAULT_MAX_FILES);

  let vectors: Map<number, VectorHit> | undefined;
  let vectorState = 'off';
  if (deps.vectors) {
    try {
      vectors = await deps.vectors(db, question, options.signal);
      vectorState = 'on';
    } catch (e) {
      if (EngineError.is(e, 'cancelled')) throw e;
      // The endpoint is optional: answer from the other paths and say why vectors were missing.
      vectorState = `unavailable: ${e instanceof Error ? e.message : String(e)}`;
      deps.logger.warn(`context: vectors ${vectorState}; answering without them`);
    }
  }
  throwIfAborted(options.signal);

  const ev = collectEvidence(db, asked, vectors);
  // Only the head of the list can be shown: the fitted model re-orders its first FITTED_DEPTH, then maxFiles stay.
  const cut = rankedHead(ev, weights, { minRelevance, limit: Math.max(FITTED_DEPTH, maxFiles), excludeTests: options.excludeTests === true });
  const { expanded, relevant } = cut;
  // Today's hand-weighted order decides what passes the cut-off; the fitted model re-orders what passed.
  const reordered = fittedRank(ev, cut.files, options.explain === true);
  let files: ScoredFile[] = reordered.files;
  if (options.reranker && files.length) files = await rerankWith(db, options.reranker, question, files, ev);
  files = files.slice(0, maxFiles);
  throwIfAborted(options.signal);

  const nodes = selectNodes(db, ev, files);
  const sites = findCallSites(db, ev.facts, nodes);
  const fmt = format === 'markdown' ? markdownFormatter : muFormatter;
  const languageOf = (path: string): string => ev.facts.byPath.get(path)?.language ?? '';
  const empty = relevant ? undefined : ev.text.terms.length || ev.entities.length
    ? 'nothing in the index matches the question well enough'
    : 'the question has no searchable words';
  const fitted = empty
    ? { selected: [], sites: [], cut: [], text: fmt.empty(question, empty), tokens: 0, reserve: 0, tokensOf: () => 0 }
    : fitContext(fmt, question, nodes, sites, budget, languageOf);
  // The empty notice is shown only when it fits the budget.
  const text = empty && countTokens(fitted.text) > budget ? '' : fitted.text;
  const tokenCount = empty ? countTokens(text) : fitted.tokens;

  const result: ContextResult = {
    question,
    format,
    tokenCount,
    entities: ev.entities,
    nodes: fitted.selected
      .sort((a, b) => b.node.score - a.node.score || a.node.id.localeCompare(b.node.id))
      .map((sel) => ({
        id: sel.node.id, path: sel.node.path, ...(sel.node.symbol ? { symbol: sel.node.symbol } : {}), kind: sel.node.kind,
        line: sel.node.lineStart, endLine: sel.node.lineEnd, score: sel.node.score, signals: sel.node.signals, reason: sel.node.reason,
        tokens: fitted.tokensOf(sel),
      })),
    files: files.map((f) => {
      const x = reordered.explain?.get(f.path);
      return { path: f.path, line: f.line, score: f.score, signals: f.signals, ...(x ? { fitted: x } : {}) };
    }),
    text,
    stats: {
      entities: ev.entities.length, seeds: ev.matches.filter((m) => m.quality >= 0.3).length, expanded, scored: files.length,
      selected: fitted.selected.length, tokensUsed: tokenCount, budget, callSiteReserve: fitted.reserve, vectors: vectorState,
      durationMs: deps.clock.now() - started,
    },
    cut: fitted.cut,
    ...(empty ? { empty } : {}),
  };
  return result;
}

/** The configured second-stage reranker orders the first RERANK_FILES files, seeing each one's best chunk. */
async function rerankWith(db: IndexDatabase, reranker: NonNullable<ContextOptions['reranker']>, question: string, files: ScoredFile[], ev: Evidence): Promise<ScoredFile[]> {
  const head = files.slice(0, RERANK_FILES);
  const candidates = head.map((f) => {
    const best = ev.text.files.get(f.fileId)?.best;
    const text = best ? chunkTextOf(db, best.id) ?? '' : '';
    return { path: f.path, line: f.line, score: f.score, ...(best?.symbol ? { symbol: best.symbol } : {}), text };
  });
  const scores = await reranker(question, candidates);
  if (scores.length !== head.length || scores.some((s) => !Number.isFinite(s))) {
    throw new EngineError('invalid_input', `the reranker returned ${scores.length} scores for ${head.length} candidates`);
  }
  const order = head.map((f, i) => ({ f, s: scores[i]! })).sort((a, b) => b.s - a.s || b.f.score - a.f.score).map((x) => x.f);
  return [...order, ...files.slice(RERANK_FILES)];
}
