/**
 * Runs the retrieval paths for a question (symbol names, full text, vectors when given, and the code graph around
 * the strongest files) and gathers what they found. Ranking is a separate, pure step over this evidence
 * (rank-files.ts), so weights can be tuned without touching the index again.
 */
import type { IndexDatabase } from '../store/database';
import { dbFacts, type DbFacts } from './db-facts';
import type { Question } from '../question/analysis';
import { fileEdges } from './file-graph';
import { resolveEntities, type SymbolMatch } from './symbol-match';
import { retrieveText, type TextEvidence } from './text-retrieval';
import type { ExtractedEntity } from './types';

export interface VectorHit {
  fileId: number;
  similarity: number;
}

export interface Evidence {
  question: string;
  facts: DbFacts;
  entities: ExtractedEntity[];
  matches: SymbolMatch[];
  text: TextEvidence;
  /** File → entity names (with quality) that the file references. */
  mentionRefs: Map<number, number>;
  /** Files named by path in the question. */
  pathMentions: Set<number>;
  /** Chunk id → its file and cosine similarity with the question, when vectors ran. */
  vectors?: Map<number, VectorHit>;
  /** Graph edges from the strongest candidate files: source → (target → strength 0..1). */
  edges: Map<number, Map<number, number>>;
  /** The question asks where a named thing is defined ("where is X defined?"). */
  locate: boolean;
  aboutTests: boolean;
}

/** Candidate files whose neighbours are looked up (strongest by text, plus every file a named symbol is in). */
const GRAPH_SOURCES = 12;

/** The evidence for a question the caller analysed (a request analyses its question once, question/analysis.ts). */
export function collectEvidence(db: IndexDatabase, q: Question, vectors?: Map<number, VectorHit>): Evidence {
  const question = q.text;
  const facts = dbFacts(db);
  const entities = [...q.entities];
  const matches = resolveEntities(db, facts, entities);
  const text = retrieveText(db, facts, q.query);
  const mentionRefs = referencesTo(db, matches);
  const pathMentions = mentionedFiles(facts, entities);
  const sources = new Set<number>(strongest(text, facts, GRAPH_SOURCES));
  for (const m of matches) if (m.quality >= 0.3) sources.add(m.fileId);
  const edges = fileEdges(db, [...sources]);
  return {
    question, facts, entities, matches, text, mentionRefs, pathMentions, ...(vectors ? { vectors } : {}), edges,
    locate: q.locate, aboutTests: q.aboutTests,
  };
}

/** The `k` files with the highest text score (ties by path), without sorting thousands of candidates. */
function strongest(text: TextEvidence, facts: DbFacts, k: number): number[] {
  const top: { id: number; bm25: number; rank: number }[] = [];
  // Read from the score columns: a view object per matching file was garbage for tens of thousands of them.
  const { ids, bm25: scores } = text.files;
  for (let place = 0; place < text.files.size; place++) {
    const id = ids[place]!;
    const bm25 = scores[place]!;
    const last = top[k - 1];
    if (last && (bm25 < last.bm25 || (bm25 === last.bm25 && facts.pathRank(id) > last.rank))) continue;
    const rank = facts.pathRank(id);
    let at = top.length;
    while (at > 0 && (top[at - 1]!.bm25 < bm25 || (top[at - 1]!.bm25 === bm25 && top[at - 1]!.rank > rank))) at--;
    top.splice(at, 0, { id, bm25, rank });
    if (top.length > k) top.pop();
  }
  return top.map((t) => t.id);
}

/**
 * Files the question names: by path (`src/auth/login.ts`, `login.ts`) or as a module path (`poetry.utils._compat`,
 * `crate::parser::matches`), which names `…/poetry/utils/_compat.py` or a package's `__init__.py`/`mod.rs`.
 */
function mentionedFiles(facts: DbFacts, entities: ExtractedEntity[]): Set<number> {
  const out = new Set<number>();
  // Every path without its extension, made once per question: a question with several dotted names tried each of
  // their prefixes against every file, stripping each path again every time.
  let bares: { id: number; bare: string }[] | undefined;
  for (const e of entities) {
    if (e.kind === 'path' || (e.kind === 'quoted' && e.text.includes('/'))) {
      const tail = `/${e.text}`;
      for (const f of facts.files.values()) if (f.path === e.text || f.path.endsWith(tail)) out.add(f.id);
      continue;
    }
    if (e.kind !== 'qualified' && e.kind !== 'quoted') continue;
    const parts = e.text.split(/\.|::/).filter((p) => p && p !== 'crate' && p !== 'self' && p !== 'super');
    if (parts.length < 2) continue;
    bares ??= [...facts.files.values()].map((f) => ({ id: f.id, bare: f.path.replace(/\.[^./]+$/, '') }));
    // The longest prefix of two or more parts that names a module; the rest are names inside it.
    for (let k = parts.length; k >= 2; k--) {
      const stem = parts.slice(0, k).join('/');
      const [tail, init, mod, rootInit, rootMod] = [`/${stem}`, `/${stem}/__init__`, `/${stem}/mod`, `${stem}/__init__`, `${stem}/mod`];
      const hits = bares.filter(({ bare }) => bare === stem || bare.endsWith(tail) || bare.endsWith(init) || bare.endsWith(mod) || bare === rootInit || bare === rootMod);
      if (hits.length && hits.length <= 3) {
        for (const f of hits) out.add(f.id);
        break;
      }
    }
  }
  return out;
}

/** Files that call or use a named symbol: noisy-or of the matched names' qualities. */
function referencesTo(db: IndexDatabase, matches: SymbolMatch[]): Map<number, number> {
  const quality = new Map<string, number>();
  for (const m of matches) if (m.quality >= 0.2) quality.set(m.name, Math.max(quality.get(m.name) ?? 0, m.quality));
  const out = new Map<number, number>();
  if (!quality.size) return out;
  const names = [...quality.keys()].slice(0, 50);
  const rows = db.all(`SELECT DISTINCT file_id, name FROM refs WHERE name IN (${names.map(() => '?').join(',')})`, names);
  for (const r of rows) {
    const id = Number(r.file_id);
    const q = quality.get(String(r.name)) ?? 0;
    out.set(id, 1 - (1 - (out.get(id) ?? 0)) * (1 - q));
  }
  return out;
}
