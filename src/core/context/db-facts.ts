/**
 * Facts about the whole index that every question needs (files, their sizes and path terms, the distinct symbol
 * names): read once per index state and kept, so a warm question costs only its own queries.
 */
import type { IndexDatabase } from '../store/database';
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

export interface DbFacts {
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
  const countsForIdf = (id: number): boolean => {
    const cls = files.get(id)?.cls;
    return cls !== undefined && cls !== 'generated';
  };
  const idfFiles = [...files.keys()].filter(countsForIdf).length;
  return { files, byPath, avgChars: files.size ? total / files.size : 1, pathDf, idfFiles, countsForIdf, symbolNames: [...definingFiles.keys()], definingFiles };
}
