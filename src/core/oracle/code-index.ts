/**
 * CodeRetrieval over the engine's index: the capabilities the façade hands in (smart context, definitions,
 * references, repo map slice) plus two small read-only queries the relevance gate and --explain need (term
 * statistics, index state). There is no full-text fallback: the engine always has those capabilities.
 */
import { EngineError } from '../errors';
import type { IndexDatabase } from '../store/database';
import type { CodeRetrieval, IndexState, TermStats } from './code-retrieval';

/** The capabilities the façade hands in; the index itself answers the term statistics and the index state. */
export type CodeCapabilities = Pick<CodeRetrieval, 'prepare' | 'context' | 'contextSignals' | 'definitions' | 'references' | 'repoMapSlice'>;

export function createIndexCodeRetrieval(getDb: () => Promise<IndexDatabase>, capabilities: CodeCapabilities): CodeRetrieval {
  const wiring = [
    'code search: smart context (getContextForQuestion)',
    'definitions: code navigation (definitions)',
    'references: code navigation (references)',
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
