/**
 * Facts about the whole index that every question needs (files, their sizes and path terms, who defines each
 * name): read once per index and kept, so a warm question costs only its own queries. A commit that rewrites a few
 * files updates them in place (their rows out, their new rows in) instead of reading the whole index again.
 */
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from '../store/database';
import { eachChunkSize } from '../store/postings';
import { localeOrder, stringPool, type Intern } from '../strings';
import { ChunkTable, type ChunkMeta } from './chunk-table';
import { ImportLinks } from './import-links';
import { NameIndex } from './name-index';
import { fileStem, normName } from './features';
import { classifyPath, PATH_CLASSES, type PathClass } from './paths';
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
  /** The file stem, case style ignored (see features.ts): files that share it are counterparts or namesakes. */
  stemKey: string;
}

export type { ChunkMeta } from './chunk-table';

export interface DbFacts {
  /** Every chunk's file, kind, lines and symbol (not its text). */
  chunks: ChunkTable;
  /** File-level graph edges already computed (see file-graph.ts), by source file; emptied by every commit. */
  edges: Map<number, Map<number, number>>;
  /** Import links between workspace files (both directions), resolved on first use. */
  imports(): Map<number, Set<number>>;
  /** In index (id) order. */
  files: Map<number, FileFact>;
  byPath: Map<string, FileFact>;
  avgChars: number;
  /** Files whose path holds each term (stem or folder): a question's path words find their files without a scan. */
  pathFiles: Map<string, Set<number>>;
  /** How many files have each stem key (FileFact.stemKey). */
  stemCounts: Map<string, number>;
  /** Distinct symbol names in code point order, for fuzzy matching. */
  readonly symbolNames: string[];
  /** Files counted for document frequencies (all but generated copies). */
  idfFiles: number;
  countsForIdf(fileId: number): boolean;
  /** Symbol name → how many files define it. */
  definingFiles: Map<string, number>;
  /** Who defines and who uses each name. */
  names: NameIndex;
  /**
   * A file's place in the list of paths ordered by `localeCompare`: sorting by it gives the same order as comparing
   * the paths, without the collation work per comparison (ranked lists break score ties by path).
   */
  pathRank(fileId: number): number;
  /** Per-file numbers a question reads for every matching file, in arrays by file id (see FileColumns). */
  fileColumns(): FileColumns;
}

/**
 * Arrays indexed by file id (a Map lookup per matching file, of 124k, was the largest single cost of the full-text
 * path's own code at 100k files). Ids with no file read as length 1 and not counted.
 */
export interface FileColumns {
  /** The file's chunk characters over the average (BM25's length ratio). */
  relLength: Float64Array;
  /** 1 when the file counts for document frequencies (countsForIdf). */
  countsForIdf: Uint8Array;
  /** The file's class as its place in PATH_CLASSES plus one; 0 for an id with no file. */
  cls: Uint8Array;
}

/** Files per `IN (…)` list. */
const IN_LIST = 500;
/** A commit touching more files than this (or this share of the index) is read whole rather than updated. */
const MAX_UPDATE_FILES = 2000;
const MAX_UPDATE_SHARE = 0.25;
/** Above this many files leaving at once, the names' cached users are dropped rather than edited. */
const MAX_EDITED_REMOVALS = 50;

/** What updating needs beyond the facts themselves. */
interface Kept {
  stamp: string;
  facts: DbFacts;
  /** Per file: indexed_at and hash, which a rewrite changes (a rewrite may even keep the id). */
  versions: Map<number, string>;
  totalChars: number;
  /** Resolved on first use, then updated with the files. */
  links?: ImportLinks;
  /** See DbFacts.pathRank; computed on first use after a change. */
  pathRanks?: (fileId: number) => number;
  /** See DbFacts.fileColumns; computed on first use after a change. */
  columns?: FileColumns;
}


const cache = new WeakMap<IndexDatabase, Kept>();

/** The facts for `db` as it is now; updated when the index was changed in place since the last call. */
export function dbFacts(db: IndexDatabase): DbFacts {
  const stamp = String(db.get("SELECT value FROM meta WHERE key = 'updated_at'")?.value ?? '') + `/${String(db.get('SELECT max(id) AS n FROM files')?.n ?? 0)}`;
  const kept = cache.get(db);
  if (kept && kept.stamp === stamp) return kept.facts;
  const next = (kept && update(db, kept, stamp)) || load(db, stamp);
  cache.set(db, next);
  return next.facts;
}

function load(db: IndexDatabase, stamp: string): Kept {
  const names = new NameIndex(db);
  const kept: Kept = { stamp, facts: undefined as unknown as DbFacts, versions: new Map(), totalChars: 0 };
  kept.facts = {
    chunks: new ChunkTable(), edges: new Map(), files: new Map(), byPath: new Map(), avgChars: 1, pathFiles: new Map(), stemCounts: new Map(), idfFiles: 0,
    definingFiles: names.definingFiles,
    names,
    imports: () => (kept.links ??= ImportLinks.load(db, kept.facts.files)).byId(kept.facts.byPath),
    countsForIdf: (id) => {
      const cls = kept.facts.files.get(id)?.cls;
      return cls !== undefined && cls !== 'generated';
    },
    // Only fuzzy matching reads the names in order: sorted when first needed.
    get symbolNames() {
      return names.sortedNames();
    },
    pathRank: (id) => (kept.pathRanks ??= pathRanks(kept.facts.files))(id),
    fileColumns: () => (kept.columns ??= fileColumns(kept.facts)),
  };
  readRows(db, kept);
  finish(kept);
  return kept;
}

/**
 * Moves `kept` to the index as it is now: files whose version changed leave with everything derived from them, and
 * come back from their new rows. Undefined when a whole read is simpler (a large commit, or ids out of order).
 */
function update(db: IndexDatabase, kept: Kept, stamp: string): Kept | undefined {
  const now = new Map<number, string>();
  for (const [id, at, hash] of db.rows('SELECT id, indexed_at, hash FROM files')) now.set(Number(id), `${String(at)}:${String(hash)}`);
  const gone = [...kept.versions.keys()].filter((id) => now.get(id) !== kept.versions.get(id));
  const added = [...now.keys()].filter((id) => kept.versions.get(id) !== now.get(id)).sort((a, b) => a - b);
  const touched = gone.length + added.length;
  if (touched > MAX_UPDATE_FILES || touched > MAX_UPDATE_SHARE * Math.max(now.size, 1)) return undefined;
  const { facts } = kept;
  const pathsBefore = new Set(gone.map((id) => facts.files.get(id)!.path));
  for (const id of gone) removeFile(kept, id, gone.length > MAX_EDITED_REMOVALS);
  // Chunks are found by file in one pass over the table (a list of chunk ids per file cost ~3 MB at 10k files).
  facts.chunks.deleteFiles(new Set(gone));
  // The facts list files in id order, and new rows get the highest ids; anything else is read whole.
  let last = -Infinity;
  for (const id of facts.files.keys()) last = id;
  if (added.length && added[0]! < last) return undefined;
  for (let i = 0; i < added.length; i += IN_LIST) {
    const part = added.slice(i, i + IN_LIST);
    readRows(db, kept, part);
  }
  facts.names.addUses(added);
  const samePaths = added.length === pathsBefore.size && added.every((id) => pathsBefore.has(facts.files.get(id)!.path));
  // The same paths resolve the same way: only the rewritten files' own imports are read again.
  if (kept.links && samePaths) kept.links.update(db, facts.files, added);
  else kept.links = undefined;
  if (gone.length || added.length) finish(kept);
  kept.stamp = stamp;
  return kept;
}

/**
 * Reads the rows of the given files (all files when absent) into `kept`. Rows are consumed as they are stepped:
 * materialised, the whole index's chunk and symbol rows are ~150 MB of arrays that all live at once, get promoted,
 * and raise the heap V8 grows to before it next collects.
 */
function readRows(db: IndexDatabase, kept: Kept, fileIds?: number[]): void {
  const list = fileIds ? `IN (${fileIds.map(() => '?').join(',')})` : '';
  const params = fileIds ?? [];
  const where = (column: string): string => (fileIds ? `WHERE ${column} ${list}` : '');
  // Names, kinds and path terms repeat across files: kept once each (the pool itself is dropped after the read).
  const intern = stringPool();
  db.each(`SELECT id, path, language, lines, indexed_at, hash, chunk_chars FROM files ${where('id')} ORDER BY id`, params, (row) => addFile(kept, row, intern));
  db.each(`SELECT id, file_id, kind, line_start, line_end, symbol FROM chunks ${where('file_id')}`, params, (row) => addChunk(kept, row, intern));
  // Column lengths are kept so that a question's full-text query need not look each matching row's up (reading
  // them per row was half the cost of a query that matches tens of thousands of chunks).
  eachChunkSize(db, fileIds, (id, name, _path, body) => kept.facts.chunks.setLengths(id, name, body));
  kept.facts.names.addSymbols((fn) => db.each(`SELECT file_id, name, kind FROM symbols ${where('file_id')}`, params, fn), intern);
}

function addFile(kept: Kept, [rawId, rawPath, language, lines, at, hash, chars]: SqlValue[], intern: Intern): void {
  const { facts } = kept;
  const id = Number(rawId);
  const path = String(rawPath);
  const terms = pathTerms(path);
  const fact: FileFact = {
    id, path, language: intern(String(language)), lines: Number(lines), chars: Number(chars ?? 0),
    cls: classifyPath(path), dirTerms: terms.dirs.map(intern), stemTerms: terms.stem.map(intern), stemKey: intern(normName(fileStem(path))),
  };
  facts.files.set(id, fact);
  facts.byPath.set(path, fact);
  kept.versions.set(id, `${String(at)}:${String(hash)}`);
  kept.totalChars += fact.chars;
  for (const t of new Set([...fact.dirTerms, ...fact.stemTerms])) {
    const holders = facts.pathFiles.get(t);
    if (holders) holders.add(id);
    else facts.pathFiles.set(t, new Set([id]));
  }
  facts.stemCounts.set(fact.stemKey, (facts.stemCounts.get(fact.stemKey) ?? 0) + 1);
}

function addChunk(kept: Kept, [rawId, fileId, kind, lineStart, lineEnd, symbol]: SqlValue[], intern: Intern): void {
  const id = Number(rawId);
  const meta: ChunkMeta = {
    id, fileId: Number(fileId), kind: String(kind), lineStart: Number(lineStart), lineEnd: Number(lineEnd),
    ...(symbol !== null ? { symbol: intern(String(symbol)) } : {}),
  };
  kept.facts.chunks.set(meta);
}

function removeFile(kept: Kept, id: number, many: boolean): void {
  const { facts } = kept;
  const fact = facts.files.get(id);
  if (!fact) return;
  facts.files.delete(id);
  if (facts.byPath.get(fact.path) === fact) facts.byPath.delete(fact.path);
  kept.versions.delete(id);
  kept.totalChars -= fact.chars;
  for (const t of new Set([...fact.dirTerms, ...fact.stemTerms])) {
    const holders = facts.pathFiles.get(t);
    holders?.delete(id);
    if (!holders?.size) facts.pathFiles.delete(t);
  }
  const namesakes = (facts.stemCounts.get(fact.stemKey) ?? 0) - 1;
  if (namesakes > 0) facts.stemCounts.set(fact.stemKey, namesakes);
  else facts.stemCounts.delete(fact.stemKey);
  facts.names.removeFile(id, many);
}

/** The derived totals after files came or went; cached edges are dropped. */
function finish(kept: Kept): void {
  const { facts } = kept;
  let idfFiles = 0;
  for (const id of facts.files.keys()) if (facts.countsForIdf(id)) idfFiles++;
  facts.idfFiles = idfFiles;
  facts.avgChars = facts.files.size ? kept.totalChars / facts.files.size : 1;
  // Edges mix names from many files: recomputed per question on demand (cheap, from the name index) rather than
  // patched.
  facts.edges = new Map();
  facts.names.settle();
  kept.pathRanks = undefined;
  kept.columns = undefined;
}

function fileColumns(facts: DbFacts): FileColumns {
  let maxId = 0;
  for (const id of facts.files.keys()) if (id > maxId) maxId = id;
  const relLength = new Float64Array(maxId + 1).fill(1);
  const countsForIdf = new Uint8Array(maxId + 1);
  const cls = new Uint8Array(maxId + 1);
  for (const f of facts.files.values()) {
    relLength[f.id] = f.chars / facts.avgChars;
    countsForIdf[f.id] = facts.countsForIdf(f.id) ? 1 : 0;
    cls[f.id] = PATH_CLASSES.indexOf(f.cls) + 1;
  }
  return { relLength, countsForIdf, cls };
}

/**
 * Files ranked by path in `localeCompare` order; paths the collator finds equal share a rank; a file not in the
 * index ranks last. Sorts call this per comparison: with ids dense enough the ranks sit in an array by id, since a
 * Map lookup per comparison was a tenth of a question at 124k files (1.0 of 16.6 s in a CPU profile).
 */
function pathRanks(files: Map<number, FileFact>): (fileId: number) => number {
  const list = [...files.values()];
  const order = localeOrder(list.map((f) => f.path));
  let maxId = 0;
  for (const f of list) if (f.id > maxId) maxId = f.id;
  if (maxId > 4 * list.length + 1024) {
    const byId = new Map(list.map((f, i) => [f.id, order[i]!]));
    return (id) => byId.get(id) ?? Number.MAX_SAFE_INTEGER;
  }
  const byId = new Float64Array(maxId + 1).fill(Number.MAX_SAFE_INTEGER);
  list.forEach((f, i) => { byId[f.id] = order[i]!; });
  return (id) => (id >= 0 && id <= maxId ? byId[id]! : Number.MAX_SAFE_INTEGER);
}
