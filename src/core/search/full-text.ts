/**
 * Full-text search over code chunks: identifier-aware terms looked up in the postings, ranked by BM25, with a boost
 * for exact names.
 * A person's search (the default order) lists definitions of the name first, then its uses, tests after source in
 * each: that is what an editor's symbol search does, and bm25 alone ranks short test callbacks named like the
 * definition above it. Retrieval for the oracle keeps the plain relevance order (`order: 'relevance'`).
 */
import { EngineError } from '../errors';
import { testFramework } from '../testmap/detect';
import { splitIdentifier } from '../parse/identifiers';
import { isStopword } from '../text/stopwords';
import { chunkTexts } from '../store/chunk-texts';
import type { IndexDatabase } from '../store/database';
import { bm25 } from '../store/bm25';
import { chunkSizes, matchAny, postingStats } from '../store/postings';
import { FTS_WEIGHTS } from '../store/schema';
import type { SqlValue } from 'sql.js';

export interface SearchOptions {
  /** Restrict to chunks of this symbol kind (function, class, …) or `file` for file-level chunks. */
  kind?: string;
  limit?: number;
  /** `definitions` (default): definitions, then uses, tests after source; `relevance`: by score alone. */
  order?: 'definitions' | 'relevance';
}

export interface SearchHit {
  path: string;
  /** 1-based first line of the chunk. */
  line: number;
  endLine: number;
  symbol?: string;
  kind: string;
  signature?: string;
  score: number;
  snippet: string;
}

/**
 * Query terms: identifiers whole and split, lower-cased, stopwords dropped, deduplicated. A query of stopwords alone
 * (`get`, `use`: the shared list holds prose words that are also common names) is searched as it is.
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  const all = new Set<string>();
  for (const raw of query.match(/[A-Za-z0-9_$]+/g) ?? []) {
    const whole = raw.replace(/\$/g, '').toLowerCase();
    for (const term of [whole, ...splitIdentifier(raw)]) {
      if (term.length < 2) continue;
      all.add(term);
      if (!isStopword(term)) terms.add(term);
    }
  }
  return [...(terms.size ? terms : all)].slice(0, 32);
}

export function searchChunks(db: IndexDatabase, query: string, options: SearchOptions = {}): SearchHit[] {
  if (!query.trim()) throw new EngineError('required', 'the search query is empty');
  const terms = queryTerms(query);
  if (!terms.length) throw new EngineError('invalid_input', `the query "${query}" has no searchable words`);
  const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
  const rows = rankedRows(db, terms, options.kind, limit * 5);
  const typed = new Set(query.match(/[A-Za-z0-9_$]+/g) ?? []);
  const wanted = new Set([...typed].map((t) => t.toLowerCase()));
  const ranked = rows.map((r) => {
    const symbol = r.symbol === null ? undefined : String(r.symbol);
    const shortName = symbol?.split('.').pop()?.toLowerCase();
    const exact = shortName !== undefined && wanted.has(shortName);
    const hit: Omit<SearchHit, 'snippet'> = {
      path: String(r.path),
      line: Number(r.line_start),
      endLine: Number(r.line_end),
      ...(symbol ? { symbol } : {}),
      kind: String(r.kind),
      ...(r.signature ? { signature: String(r.signature) } : {}),
      score: Math.round((Number(r.score) * (exact ? 1.5 : 1)) * 1000) / 1000,
    };
    // Definitions of the name (as typed before other cases: getPath before GetPath), in source then in tests; then
    // uses, in source then in tests.
    const sameCase = exact && typed.has(symbol!.split('.').pop()!);
    const tier = options.order === 'relevance' ? 0 : (exact ? 0 : 4) + (testFramework(hit.path) ? 2 : 0) + (sameCase ? 0 : 1);
    return { id: Number(r.id), hit, tier };
  });
  ranked.sort((a, b) => a.tier - b.tier || b.hit.score - a.hit.score || a.hit.path.localeCompare(b.hit.path) || a.hit.line - b.hit.line);
  const top = ranked.slice(0, limit);
  // Chunk text is rebuilt from the stored file text: only for the hits shown.
  const texts = chunkTexts(db, top.map((r) => r.id));
  return top.map(({ id, hit }) => ({ ...hit, snippet: snippetOf(texts.get(id) ?? '', terms) }));
}

const ROW_BATCH = 200;

/**
 * The `pool` best chunks holding any of `terms` (of `kind` when given) by BM25 over name, path and body, with their
 * rows; equal scores in chunk id order.
 */
function rankedRows(db: IndexDatabase, terms: string[], kind: string | undefined, pool: number): Record<string, SqlValue>[] {
  const match = matchAny(db, terms.map((text) => ({ text })));
  const p = terms.length;
  const docsWithHit = new Uint32Array(3 * p);
  match.lists.forEach((list, q) => {
    for (let i = 0; i < list.length; i++) for (let col = 0; col < 3; col++) if (list.counts[3 * i + col]) docsWithHit[3 * q + col]!++;
  });
  const corpus = { ...postingStats(db), docsWithHit };
  const weights = [FTS_WEIGHTS.name, FTS_WEIGHTS.path, FTS_WEIGHTS.body];
  const sizes = chunkSizes(db, match.ids);
  const scored: Array<{ id: number; score: number }> = [];
  for (let i = 0; i < match.length; i++) {
    const len = sizes.get(match.ids[i]!);
    // No length: a removed chunk, whose postings stay until compaction.
    if (len) scored.push({ id: match.ids[i]!, score: bm25(corpus, match.counts, 3 * p * i, p, len, weights) });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  const out: Record<string, SqlValue>[] = [];
  for (let i = 0; i < scored.length && out.length < pool; i += ROW_BATCH) {
    const part = scored.slice(i, i + ROW_BATCH);
    const byId = new Map<number, Record<string, SqlValue>>();
    for (const r of db.all(
      `SELECT c.id, c.symbol, c.kind, c.line_start, c.line_end, c.signature, f.path FROM chunks c JOIN files f ON f.id = c.file_id
       WHERE c.id IN (${part.map(() => '?').join(',')}) ${kind ? 'AND c.kind = ?' : ''}`,
      [...part.map((s) => s.id), ...(kind ? [kind] : [])],
    )) byId.set(Number(r.id), r);
    for (const s of part) {
      const row = byId.get(s.id);
      if (row && out.length < pool) out.push({ ...row, score: s.score });
    }
  }
  return out;
}

/** The first lines of the chunk that mention a query term (or its head), trimmed. */
function snippetOf(text: string, terms: string[]): string {
  const lines = text.split('\n');
  const idx = lines.findIndex((l) => terms.some((t) => l.toLowerCase().includes(t)));
  const from = Math.max(0, idx < 0 ? 0 : idx - 1);
  return lines.slice(from, from + 3).map((l) => l.trimEnd()).join('\n').slice(0, 300);
}
