/**
 * CodeRetrieval over the engine's index: the capabilities the façade hands in (smart context, definitions,
 * references, repo map slice) plus two small read-only queries the relevance gate and --explain need (term
 * statistics, index state). There is no full-text fallback: the engine always has those capabilities.
 */
import { stem } from '../context/terms';
import { isStopword } from '../text/stopwords';
import { splitIdentifier } from '../parse/identifiers';
import { EngineError } from '../errors';
import type { IndexDatabase } from '../store/database';
import { deadChunkIds, matchAll, termPostings, type TermQuery } from '../store/postings';
import { tokens } from '../store/tokenize';
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
      // Live chunks only: the postings keep removed chunks' ids until compaction.
      const dead = deadChunkIds(db);
      for (const t of terms) {
        if (!/^[a-z0-9_$]+$/.test(t)) continue;
        const list = termPostings(db, { text: t });
        let n = list.length;
        if (dead.size) for (let i = 0; i < list.length; i++) if (dead.has(list.ids[i]!)) n--;
        df[t] = n;
      }
      return { docs, df, named: projectNames(db, terms) };
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

/**
 * The chunks a word matches in one column, as FTS4 read `name:foo_bar`: the column holds the word's first token and
 * the chunk holds the others anywhere (a bare word of several tokens is not a phrase there). This keeps the names
 * the oracle finds as they were.
 */
function columnWord(word: string, column: 'name' | 'path'): TermQuery[] {
  const [first, ...rest] = tokens(word);
  return first === undefined ? [] : [{ text: first, column }, ...rest.map((text) => ({ text }))];
}

/**
 * The first NAMES_PER_TERM distinct values `select` (id, value; `c` is chunk_spans) gives for the chunks matching all
 * of `queries`, in chunk id order; removed chunks give none.
 */
function firstDistinct(db: IndexDatabase, queries: TermQuery[], select: string): string[] {
  const ids = matchAll(db, queries);
  const out = new Set<string>();
  for (let i = 0; i < ids.length && out.size < NAMES_PER_TERM; i += ID_BATCH) {
    const part = ids.slice(i, i + ID_BATCH);
    const values = new Map(db.rows(`${select} WHERE c.id IN (${part.map(() => '?').join(',')})`, part).map(([id, v]) => [Number(id), String(v)]));
    for (const id of part) {
      const v = values.get(id);
      if (v !== undefined && out.size < NAMES_PER_TERM) out.add(v);
    }
  }
  return [...out];
}

const ID_BATCH = 256;

/** Most names looked at per question word. */
const NAMES_PER_TERM = 50;

/**
 * Names in the project made wholly of the question's words: a symbol (`backoffDelay` for "backoff delay", `match` for
 * "match"), a folder or a file (`router/`, `contract.py`). A word that only appears inside longer names (`life` of
 * `life_clause`) or in comments does not make one.
 */
function projectNames(db: IndexDatabase, terms: string[]): string[] {
  const asked = new Set(terms.map(stem));
  const covered = (name: string): boolean => {
    const words = splitIdentifier(name).filter((w) => w.length >= 2 && !/^[0-9]+$/.test(w) && !isStopword(w)).map(stem);
    return words.length > 0 && words.every((w) => asked.has(w));
  };
  const words = [...new Set(terms.flatMap((t) => [t, stem(t)]))].filter((w) => /^[a-z0-9_]+$/.test(w));
  const found = new Set<string>();
  for (const w of words) {
    // A symbol named by the word alone (`files`, `Context`), looked up by the index on lower(name): the list below
    // stops at NAMES_PER_TERM names holding it and may not reach it.
    const alone = db.get('SELECT name FROM symbols WHERE lower(name) = ? LIMIT 1', [w]);
    if (alone && covered(String(alone.name))) found.add(String(alone.name));
    for (const name of firstDistinct(db, columnWord(w, 'name'), 'SELECT c.id, s.name FROM chunk_spans c JOIN symbols s ON s.id = c.symbol_id')) {
      if (covered(name)) found.add(name);
    }
    for (const path of firstDistinct(db, columnWord(w, 'path'), 'SELECT c.id, f.path FROM chunk_spans c JOIN files f ON f.id = c.file_id')) {
      for (const segment of path.split('/')) if (covered(segment.replace(/\.[^.]*$/, ''))) found.add(segment);
    }
    if (found.size) break;
  }
  return [...found];
}
