/**
 * CodeRetrieval over the engine's index: full-text search (searchChunks) always, plus whatever engine capabilities
 * the façade hands in (smart context, definitions, references, repo map slice). Term statistics and index state are
 * two small read-only queries the relevance gate and --explain need.
 */
import { EngineError } from '../errors';
import { searchChunks } from '../search/full-text';
import type { IndexDatabase } from '../store/database';
import type { CodeHit, CodeRetrieval, IndexState, TermStats } from './code-retrieval';

export type CodeCapabilities = Partial<Pick<CodeRetrieval, 'prepare' | 'context' | 'contextSignals' | 'definitions' | 'references' | 'repoMapSlice'>>;

export function createIndexCodeRetrieval(getDb: () => Promise<IndexDatabase>, capabilities: CodeCapabilities = {}): CodeRetrieval {
  const wiring = [
    `code search: ${capabilities.context ? 'smart context (getContextForQuestion)' : 'full-text BM25 (searchChunks)'}`,
    `definitions: ${capabilities.definitions ? 'code navigation (definitions)' : 'full-text search filtered to the exact symbol name'}`,
    `references: ${capabilities.references ? 'code navigation (references)' : 'full-text search, lines naming the symbol'}`,
    `repo map slice: ${capabilities.repoMapSlice ? 'repo map (slice)' : 'not available in this engine'}`,
    `just-in-time indexing: ${capabilities.prepare ? 'yes' : 'no'}`,
  ];
  return {
    wiring,
    async unavailable() {
      try {
        await getDb();
        return undefined;
      } catch (e) {
        if (EngineError.is(e, 'not_initialized') || EngineError.is(e, 'index_corrupt')) return e.message;
        throw e;
      }
    },
    ...capabilities,
    async search(query, limit) {
      let hits;
      try {
        hits = searchChunks(await getDb(), query, { limit, order: 'relevance' });
      } catch (e) {
        // A question made only of stopwords has nothing to search for: no hits rather than an error.
        if (EngineError.is(e, 'invalid_input') || EngineError.is(e, 'required')) return [];
        throw e;
      }
      return hits.map((h): CodeHit => ({
        path: h.path, line: h.line, endLine: h.endLine, kind: h.kind, score: h.score, method: 'fulltext', via: 'full-text',
        ...(h.symbol ? { symbol: h.symbol } : {}),
        ...(h.signature ? { signature: h.signature } : {}),
      }));
    },
    async termStats(terms): Promise<TermStats> {
      const db = await getDb();
      const docs = Number(db.get('SELECT count(*) AS n FROM chunks')?.n ?? 0);
      const df: Record<string, number> = {};
      for (const t of terms) {
        if (!/^[a-z0-9_$]+$/.test(t)) continue;
        // Joined to the chunks: chunks_fts keeps rows of removed chunks until compaction.
        df[t] = Number(db.get('SELECT count(*) AS n FROM chunks_fts JOIN chunk_spans c ON c.id = chunks_fts.docid WHERE chunks_fts MATCH ?', [`"${t}"`])?.n ?? 0);
      }
      return { docs, df };
    },
    async indexState(paths): Promise<IndexState> {
      let db: IndexDatabase;
      try {
        db = await getDb();
      } catch {
        return { exists: false, indexedMtimes: {} };
      }
      const updated = db.meta().updated_at;
      const indexedMtimes: Record<string, number> = {};
      for (const p of paths) {
        const row = db.get('SELECT mtime FROM files WHERE path = ?', [p]);
        if (row) indexedMtimes[p] = Number(row.mtime);
      }
      return { exists: true, ...(updated ? { updatedAt: Number(updated) } : {}), indexedMtimes };
    },
  };
}
