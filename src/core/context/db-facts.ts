/**
 * Facts about the whole index that every question needs (files, their sizes and path terms, the distinct symbol
 * names): read once per index state and kept, so a warm question costs only its own queries.
 */
import type { IndexDatabase } from '../store/database';
import { ImportResolver } from '../navigation/imports';
import { classifyPath, type PathClass } from './paths';
import { pathTerms } from './terms';

export interface FileFact {
  id: number;
  path: string;
  language: string;
  lines: number;
  /** Characters of chunk text, a stand-in for the file's length in tokens. */
  chars: number;
  cls: PathClass;
  dirTerms: string[];
  stemTerms: string[];
}

export interface ChunkMeta {
  id: number;
  fileId: number;
  kind: string;
  lineStart: number;
  lineEnd: number;
  symbol?: string;
}

export interface DbFacts {
  /** Every chunk's file, kind, lines and symbol (not its text). */
  chunks: Map<number, ChunkMeta>;
  /** File-level graph edges already computed (see file-graph.ts), by source file. */
  edges: Map<number, Map<number, number>>;
  /** Import links between workspace files (both directions), resolved on first use. */
  imports(): Map<number, Set<number>>;
  files: Map<number, FileFact>;
  byPath: Map<string, FileFact>;
  avgChars: number;
  /** Files whose path holds each term (stem or folder). */
  pathDf: Map<string, number>;
  /** Distinct symbol names, for fuzzy matching. */
  symbolNames: string[];
  /** Files counted for document frequencies (all but generated copies). */
  idfFiles: number;
  countsForIdf(fileId: number): boolean;
  /** Symbol name → how many files define it. */
  definingFiles: Map<string, number>;
}

/** An import resolving to more files than this (a whole package) says little about any one of them. */
const MAX_IMPORT_TARGETS = 3;

const cache = new WeakMap<IndexDatabase, { stamp: string; facts: DbFacts }>();

/** The facts for `db` as it is now; rebuilt when the index was updated in place. */
export function dbFacts(db: IndexDatabase): DbFacts {
  const stamp = String(db.get("SELECT value FROM meta WHERE key = 'updated_at'")?.value ?? '') + `/${String(db.get('SELECT max(id) AS n FROM files')?.n ?? 0)}`;
  const hit = cache.get(db);
  if (hit && hit.stamp === stamp) return hit.facts;
  const facts = loadFacts(db);
  cache.set(db, { stamp, facts });
  return facts;
}

function loadFacts(db: IndexDatabase): DbFacts {
  const chars = new Map<number, number>();
  for (const r of db.all('SELECT file_id, sum(length(text)) AS n FROM chunks GROUP BY file_id')) chars.set(Number(r.file_id), Number(r.n));
  const files = new Map<number, FileFact>();
  const byPath = new Map<string, FileFact>();
  const pathDf = new Map<string, number>();
  let total = 0;
  for (const r of db.all('SELECT id, path, language, lines FROM files')) {
    const id = Number(r.id);
    const path = String(r.path);
    const terms = pathTerms(path);
    const fact: FileFact = {
      id, path, language: String(r.language), lines: Number(r.lines), chars: chars.get(id) ?? 0,
      cls: classifyPath(path), dirTerms: terms.dirs, stemTerms: terms.stem,
    };
    files.set(id, fact);
    byPath.set(path, fact);
    total += fact.chars;
    for (const t of new Set([...terms.dirs, ...terms.stem])) pathDf.set(t, (pathDf.get(t) ?? 0) + 1);
  }
  const definingFiles = new Map<string, number>();
  for (const r of db.all('SELECT name, count(DISTINCT file_id) AS n FROM symbols GROUP BY name')) definingFiles.set(String(r.name), Number(r.n));
  const chunks = new Map<number, ChunkMeta>();
  for (const r of db.all('SELECT id, file_id, kind, line_start, line_end, symbol FROM chunks')) {
    const id = Number(r.id);
    chunks.set(id, {
      id, fileId: Number(r.file_id), kind: String(r.kind), lineStart: Number(r.line_start), lineEnd: Number(r.line_end),
      ...(r.symbol !== null ? { symbol: String(r.symbol) } : {}),
    });
  }
  const countsForIdf = (id: number): boolean => {
    const cls = files.get(id)?.cls;
    return cls !== undefined && cls !== 'generated';
  };
  const idfFiles = [...files.keys()].filter(countsForIdf).length;
  let imports: Map<number, Set<number>> | undefined;
  const importLinks = (): Map<number, Set<number>> => (imports ??= resolveImports(db, files, byPath));
  return { chunks, edges: new Map(), imports: importLinks, files, byPath, avgChars: files.size ? total / files.size : 1, pathDf, idfFiles, countsForIdf, symbolNames: [...definingFiles.keys()], definingFiles };
}

/** Every import resolved to workspace files, as undirected links (a package import in Go links a whole folder: skipped). */
function resolveImports(db: IndexDatabase, files: Map<number, FileFact>, byPath: Map<string, FileFact>): Map<number, Set<number>> {
  const resolver = new ImportResolver([...files.values()].map((f) => ({ id: f.id, path: f.path, language: f.language })));
  const links = new Map<number, Set<number>>();
  const link = (a: number, b: number): void => {
    if (a === b) return;
    if (!links.has(a)) links.set(a, new Set());
    links.get(a)!.add(b);
  };
  for (const r of db.all('SELECT DISTINCT file_id, source FROM imports')) {
    const from = files.get(Number(r.file_id));
    if (!from) continue;
    const targets = resolver.resolve({ id: from.id, path: from.path, language: from.language }, String(r.source));
    if (targets.length > MAX_IMPORT_TARGETS) continue;
    for (const t of targets) {
      const to = byPath.get(t);
      if (!to) continue;
      link(from.id, to.id);
      link(to.id, from.id);
    }
  }
  return links;
}
