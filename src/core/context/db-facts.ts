/**
 * Facts about the whole index that every question needs (files, their sizes and path terms, who defines each
 * name): read once per index and kept, so a warm question costs only its own queries. A commit that rewrites a few
 * files updates them in place (their rows out, their new rows in) instead of reading the whole index again.
 */
import type { IndexDatabase } from '../store/database';
import { FILE_STAMP_SQL } from '../store/file-stamp';
import { eachChunkSize } from '../store/postings';
import { SYMBOL_KIND_CODES } from '../store/schema';
import { localeOrder, stringPool, type Intern } from '../strings';
import { ChunkTable } from './chunk-table';
import { ImportLinks } from './import-links';
import { NameIndex, UNLINKED_KINDS, type SymbolLists } from './name-index';
import { eachList, fileLists, type FactsOfVersion, type FileLists, type SavedFacts } from './saved-facts';
import { indexVersion } from '../store/index-version';
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
  /** What saving the facts needs beyond them, kept from a whole read or a patch for a warm-up to save (see warmFacts). */
  saving?: Saving;
}

/** Name id → name (ref_names: holes allowed) and each file's names defined by id, as saved-facts.ts saves them. */
interface Saving {
  names: Array<string | undefined>;
  defined: FileLists;
  linked: FileLists;
}

/** The files whose stamps differ between what the facts hold and the index: their rows out, then in again. */
interface FileChanges {
  /** Files held whose stamp moved or that are gone. */
  gone: number[];
  /** Files of the index whose stamp is new, in id order. */
  added: number[];
  /** Files in the index now. */
  files: number;
}


const cache = new WeakMap<IndexDatabase, Kept>();

/** The facts for `db` as it is now; updated when the index was changed in place since the last call. */
export function dbFacts(db: IndexDatabase): DbFacts {
  const stamp = stampOf(db);
  const kept = cache.get(db);
  if (kept && kept.stamp === stamp) return kept.facts;
  let next: Kept | undefined;
  if (kept) {
    kept.saving = undefined;
    const changes = changesSince(db, kept.versions);
    if (!tooMany(changes)) next = update(db, kept, stamp, changes);
  }
  next ??= load(db, stamp);
  cache.set(db, next);
  return next.facts;
}

/** What warmFacts() gives. */
export interface WarmFacts {
  facts: DbFacts;
  /**
   * Set when the facts came from saved ones: the index version they were saved for, and the files read again since
   * then (none when saved for the index as it is now), for the use table saved with them to be brought up alike.
   */
  restored?: { version: string; changed: ReadonlySet<number> };
  /** The facts to save, when they were made just now (read whole, or patched) and the index has not changed since. */
  toSave(): SavedFacts | undefined;
}

/**
 * The facts for a long-running host's warm-up when none are held yet: from `saved` (the facts saved beside the
 * index, saved-facts.ts) when they are of its version; when they are of an earlier version of the same index (a
 * commit since), from them brought up to date with the files whose stamps changed, as a commit updates the facts of
 * a host that stays open (unless that many files changed that a whole read is simpler); else read whole. Throws
 * when the saved facts do not fit the index; nothing is kept then.
 */
export function warmFacts(db: IndexDatabase, saved?: FactsOfVersion): WarmFacts {
  const stamp = stampOf(db);
  if (cache.get(db)) return { facts: dbFacts(db), toSave: () => undefined };
  if (saved && saved.version === indexVersion(db)) {
    const restored = fromSaved(db, stamp, saved.facts);
    cache.set(db, restored);
    return { facts: restored.facts, restored: { version: saved.version, changed: new Set() }, toSave: () => undefined };
  }
  const patched = saved && patchSaved(db, stamp, saved.facts);
  const made = patched?.kept ?? load(db, stamp, true);
  cache.set(db, made);
  return {
    facts: made.facts,
    ...(patched && saved ? { restored: { version: saved.version, changed: patched.changed } } : {}),
    toSave: () => {
      const toSave = cache.get(db) === made && made.stamp === stampOf(db) ? savedFacts(made) : undefined;
      // Held only until saved: ~25 MB at 124k files.
      made.saving = undefined;
      return toSave;
    },
  };
}

/**
 * The facts saved for an earlier version of the index, brought up to date: undefined when a whole read is simpler
 * (see update). `changed`: the files read again.
 */
function patchSaved(db: IndexDatabase, stamp: string, saved: SavedFacts): { kept: Kept; changed: ReadonlySet<number> } | undefined {
  const before = new Map<number, string>();
  const { ids, stamps } = saved.files;
  for (let i = 0; i < ids.length; i++) before.set(ids[i]!, stamps[i]!);
  const changes = changesSince(db, before);
  if (tooMany(changes)) return undefined;
  const restored = fromSaved(db, '', saved);
  restored.saving = { names: saved.names, defined: saved.defined, linked: saved.linked };
  const kept = update(db, restored, stamp, changes);
  return kept && { kept, changed: new Set([...changes.gone, ...changes.added]) };
}

function stampOf(db: IndexDatabase): string {
  return String(db.get("SELECT value FROM meta WHERE key = 'updated_at'")?.value ?? '') + `/${String(db.get('SELECT max(id) AS n FROM files')?.n ?? 0)}`;
}

function load(db: IndexDatabase, stamp: string, forSaving = false): Kept {
  const kept = emptyKept(db, stamp);
  const { names, lists } = readRows(db, kept);
  if (forSaving) kept.saving = { names, defined: fileLists(lists.all), linked: fileLists(lists.linked) };
  finish(kept);
  return kept;
}

function emptyKept(db: IndexDatabase, stamp: string): Kept {
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
  return kept;
}

/** The facts as saved-facts.ts saves them; undefined when they were not read whole (or their imports not resolved). */
function savedFacts(kept: Kept): SavedFacts | undefined {
  const { facts, saving, links } = kept;
  if (!saving || !links) return undefined;
  const savedLinks = links.saved(facts.byPath);
  if (!savedLinks) return undefined;
  const n = facts.files.size;
  const files: SavedFacts['files'] = { ids: new Int32Array(n), lines: new Float64Array(n), chars: new Float64Array(n), language: new Int32Array(n), languages: [], paths: [], stamps: [] };
  const languages = new Map<string, number>();
  let i = 0;
  for (const f of facts.files.values()) {
    let language = languages.get(f.language);
    if (language === undefined) languages.set(f.language, (language = files.languages.push(f.language) - 1));
    files.ids[i] = f.id;
    files.lines[i] = f.lines;
    files.chars[i] = f.chars;
    files.language[i] = language;
    files.paths.push(f.path);
    files.stamps.push(kept.versions.get(f.id)!);
    i++;
  }
  return { files, names: saving.names, defined: saving.defined, linked: saving.linked, chunks: facts.chunks.columns(), links: savedLinks };
}

/** The facts from what savedFacts() gave for the index as it is now; throws when they do not fit it. */
function fromSaved(db: IndexDatabase, stamp: string, saved: SavedFacts): Kept {
  const kept = emptyKept(db, stamp);
  const paths = pathParts();
  const { files } = saved;
  for (let i = 0; i < files.ids.length; i++) {
    addFile(kept, files.ids[i]!, files.paths[i]!, files.languages[files.language[i]!]!, files.lines[i]!, files.stamps[i]!, files.chars[i]!, paths);
  }
  kept.facts.names.addSymbolLists(saved.names, eachList(saved.defined, saved.names), eachList(saved.linked, saved.names));
  kept.facts.chunks = ChunkTable.fromColumns(saved.chunks);
  kept.links = ImportLinks.fromSaved(kept.facts.files, saved.links);
  finish(kept);
  return kept;
}

/** Which files' stamps differ between `before` (id → FILE_STAMP_SQL) and the index now. */
function changesSince(db: IndexDatabase, before: Map<number, string>): FileChanges {
  const now = new Map<number, string>();
  db.each(`SELECT id, ${FILE_STAMP_SQL} FROM files`, [], ([id, version]) => {
    now.set(Number(id), String(version));
  });
  const gone = [...before.keys()].filter((id) => now.get(id) !== before.get(id));
  const added = [...now.keys()].filter((id) => before.get(id) !== now.get(id)).sort((a, b) => a - b);
  return { gone, added, files: now.size };
}

/** Whether so many files changed that reading the index whole is simpler than updating. */
function tooMany({ gone, added, files }: FileChanges): boolean {
  const touched = gone.length + added.length;
  return touched > MAX_UPDATE_FILES || touched > MAX_UPDATE_SHARE * Math.max(files, 1);
}

/**
 * Moves `kept` to the index as it is now: files whose version changed leave with everything derived from them, and
 * come back from their new rows (and so in what it keeps for saving, when it keeps that). Undefined when a whole
 * read is simpler (ids out of order).
 */
function update(db: IndexDatabase, kept: Kept, stamp: string, { gone, added }: FileChanges): Kept | undefined {
  const { facts } = kept;
  const pathsBefore = new Set(gone.map((id) => facts.files.get(id)!.path));
  for (const id of gone) removeFile(kept, id, gone.length > MAX_EDITED_REMOVALS);
  const goneSet = new Set(gone);
  // Chunks are found by file in one pass over the table (a list of chunk ids per file cost ~3 MB at 10k files).
  facts.chunks.deleteFiles(goneSet);
  // The facts list files in id order, and new rows get the highest ids; anything else is read whole.
  let last = -Infinity;
  for (const id of facts.files.keys()) last = id;
  if (added.length && added[0]! < last) return undefined;
  const addedLists: SymbolLists = { all: new Map(), linked: new Map() };
  for (let i = 0; i < added.length; i += IN_LIST) {
    const part = added.slice(i, i + IN_LIST);
    const read = readRows(db, kept, part);
    if (!kept.saving) continue;
    const { names } = kept.saving;
    // Name ids keep their meaning within one index (ref_names rows are only added): new ones are filled in.
    read.names.forEach((name, id) => { names[id] = name; });
    for (const [file, list] of read.lists.all) addedLists.all.set(file, list);
    for (const [file, list] of read.lists.linked) addedLists.linked.set(file, list);
  }
  if (kept.saving) {
    const { names, defined, linked } = kept.saving;
    kept.saving = { names, defined: patchedLists(defined, goneSet, addedLists.all), linked: patchedLists(linked, goneSet, addedLists.linked) };
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

/** `lists` without the files gone, then the files added: the order a whole read lists them in (files by id). */
function patchedLists(lists: FileLists, gone: ReadonlySet<number>, added: Map<number, number[]>): FileLists {
  let files = added.size;
  let values = 0;
  for (const list of added.values()) values += list.length;
  for (let i = 0; i < lists.files.length; i++) {
    if (gone.has(lists.files[i]!)) continue;
    files++;
    values += lists.at[i + 1]! - lists.at[i]!;
  }
  const out: FileLists = { files: new Int32Array(files), at: new Int32Array(files + 1), values: new Int32Array(values) };
  let n = 0;
  const push = (file: number, list: ArrayLike<number>): void => {
    out.files[n] = file;
    out.values.set(list, out.at[n]!);
    out.at[n + 1] = out.at[n]! + list.length;
    n++;
  };
  for (let i = 0; i < lists.files.length; i++) if (!gone.has(lists.files[i]!)) push(lists.files[i]!, lists.values.subarray(lists.at[i]!, lists.at[i + 1]!));
  for (const [file, list] of added) push(file, list);
  return out;
}

/**
 * Reads the rows of the given files (all files when absent) into `kept`. Rows are consumed as they are stepped:
 * materialised, the whole index's chunk and symbol rows are ~150 MB of arrays that all live at once, get promoted,
 * and raise the heap V8 grows to before it next collects. Symbols and chunks are read from their tables, not through
 * the views `symbols` and `chunks`: the views look each row's name up and decode it, and the chunks view joins each
 * chunk to its symbol; here each symbol row is read once and each distinct name decoded once (2M rows of each at
 * 124k files).
 */
function readRows(db: IndexDatabase, kept: Kept, fileIds?: number[]): { names: Array<string | undefined>; lists: SymbolLists } {
  const list = fileIds ? `IN (${fileIds.map(() => '?').join(',')})` : '';
  const params = fileIds ?? [];
  const where = (column: string): string => (fileIds ? `WHERE ${column} ${list}` : '');
  const { chunks } = kept.facts;
  const paths = pathParts();
  db.each(`SELECT id, path, language, lines, ${FILE_STAMP_SQL}, chunk_chars FROM files ${where('id')} ORDER BY id`, params, ([id, path, language, lines, version, chars]) => {
    addFile(kept, Number(id), String(path), String(language), Number(lines), String(version), Number(chars ?? 0), paths);
  });
  // Names by id (ids are dense: ref_names keeps every name in use).
  const names: Array<string | undefined> = [];
  db.each(`SELECT id, name FROM ref_names ${fileIds ? `WHERE id IN (SELECT name_id FROM symbol_rows ${where('file_id')})` : ''}`, params, ([id, name]) => {
    names[Number(id)] = String(name);
  });
  const symbols = new SymbolRefs(fileIds ? undefined : Number(db.get('SELECT max(id) AS n FROM symbol_rows')?.n ?? -1));
  // Each distinct symbol (name, or container and name) as the chunk table's string id: made and looked up once.
  const nameText = new Int32Array(names.length);
  const containerText = new Map<string, number>();
  const qualifiedText = new Map<number, number>();
  const lists = kept.facts.names.addSymbols(names, (fn) => db.each(`SELECT id, file_id, name_id, kind, container FROM symbol_rows ${where('file_id')}`, params, ([id, fileId, rawName, rawKind, container]) => {
    const nameId = Number(rawName);
    const name = nameId >= 0 ? names[nameId] : undefined;
    const kind = Number(rawKind);
    // As the views read: a row naming no name is left out of `symbols` (an inner join), and its chunk has no symbol.
    if (name === undefined) {
      symbols.add(Number(id), kind, 0);
      return;
    }
    const kindName = SYMBOL_KIND_CODES[kind];
    fn(Number(fileId), nameId, kindName === undefined || !UNLINKED_KINDS.has(kindName));
    if (container === null) {
      symbols.add(Number(id), kind, nameText[nameId] || (nameText[nameId] = chunks.textId(name)));
      return;
    }
    const c = String(container);
    let inside = containerText.get(c);
    if (inside === undefined) containerText.set(c, (inside = containerText.size));
    // One number per (container, name): name ids are below names.length.
    const pair = inside * names.length + nameId;
    let text = qualifiedText.get(pair);
    if (text === undefined) qualifiedText.set(pair, (text = chunks.textId(`${c}.${name}`)));
    symbols.add(Number(id), kind, text);
  }));
  // As the chunks view's LEFT JOINs read: a chunk with no symbol row is of kind 'file', as is one whose symbol's kind
  // code is unknown (its symbol stays).
  db.each(`SELECT id, file_id, symbol_id, line_start, line_end FROM chunk_spans ${where('file_id')}`, params, ([id, fileId, symbolId, lineStart, lineEnd]) => {
    const symbol = symbolId === null ? -1 : Number(symbolId);
    const found = symbols.has(symbol);
    const kind = found ? SYMBOL_KIND_CODES[symbols.kindOf(symbol)] : undefined;
    chunks.setRow(Number(id), Number(fileId), kind ?? 'file', Number(lineStart), Number(lineEnd), found ? symbols.textOf(symbol) : 0);
  });
  // Column lengths are kept so that a question's full-text query need not look each matching row's up (reading
  // them per row was half the cost of a query that matches tens of thousands of chunks).
  eachChunkSize(db, fileIds, (id, name, _path, body) => chunks.setLengths(id, name, body));
  return { names, lists };
}

/** Above this many symbol ids a full read keeps its symbols in a Map rather than in arrays by id. */
const MAX_DENSE_SYMBOLS = 1 << 26;

/**
 * What a chunk takes from its symbol (kind, and the symbol as the chunk table's string id), by symbol id, for one
 * read: in arrays by id for a read of every file (5 bytes per symbol: 2M at 124k files), in a Map for a commit's few.
 */
class SymbolRefs {
  /** Kind code plus one (0: no symbol; 255: a code out of range). */
  private readonly kinds: Uint8Array | undefined;
  private readonly texts: Int32Array | undefined;
  private readonly rows = new Map<number, [kind: number, text: number]>();

  constructor(maxId?: number) {
    if (maxId === undefined || maxId < 0 || maxId >= MAX_DENSE_SYMBOLS) return;
    this.kinds = new Uint8Array(maxId + 1);
    this.texts = new Int32Array(maxId + 1);
  }

  /** `text`: the chunk table's string id, 0 for a symbol without one. */
  add(id: number, kind: number, text: number): void {
    if (this.kinds && id >= 0 && id < this.kinds.length) {
      this.kinds[id] = kind >= 0 && kind < 254 ? kind + 1 : 255;
      this.texts![id] = text;
    } else this.rows.set(id, [kind, text]);
  }

  /** Whether symbol `id` was read. */
  has(id: number): boolean {
    return this.kinds && id >= 0 && id < this.kinds.length ? this.kinds[id] !== 0 : this.rows.has(id);
  }

  /** The symbol's kind code; -1 for an id with no symbol read, or a code out of range. */
  kindOf(id: number): number {
    if (this.kinds && id >= 0 && id < this.kinds.length && this.kinds[id]) return this.kinds[id] === 255 ? -1 : this.kinds[id]! - 1;
    return this.rows.get(id)?.[0] ?? -1;
  }

  textOf(id: number): number {
    return this.kinds && id >= 0 && id < this.kinds.length && this.kinds[id] ? this.texts![id]! : this.rows.get(id)?.[1] ?? 0;
  }
}

/**
 * What one read works out once for all the files that share it: a folder's terms (its files share the array), a
 * file name's stem terms and stem key, and one copy of each term.
 */
interface PathParts {
  intern: Intern;
  /** Terms of each folder name, and of each folder path (a folder's files share the array). */
  folders: Map<string, string[]>;
  dirs: Map<string, string[]>;
  names: Map<string, { stem: string[]; stemKey: string }>;
}

function pathParts(): PathParts {
  return { intern: stringPool(), folders: new Map(), dirs: new Map(), names: new Map() };
}

/** `version`: the file's FILE_STAMP_SQL. */
function addFile(kept: Kept, id: number, path: string, language: string, lines: number, version: string, chars: number, parts: PathParts): void {
  const { facts } = kept;
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  let dirTerms = parts.dirs.get(dir);
  if (!dirTerms) parts.dirs.set(dir, (dirTerms = pathTerms(path, parts.folders).dirs.map(parts.intern)));
  let named = parts.names.get(base);
  if (!named) parts.names.set(base, (named = { stem: pathTerms(base).stem.map(parts.intern), stemKey: parts.intern(normName(fileStem(base))) }));
  const fact: FileFact = {
    id, path, language: parts.intern(language), lines, chars,
    cls: classifyPath(path), dirTerms, stemTerms: named.stem, stemKey: named.stemKey,
  };
  facts.files.set(id, fact);
  facts.byPath.set(path, fact);
  kept.versions.set(id, version);
  kept.totalChars += fact.chars;
  // Each term once: folder terms are distinct already, and stem terms are distinct among themselves.
  const hold = (t: string): void => {
    const holders = facts.pathFiles.get(t);
    if (holders) holders.add(id);
    else facts.pathFiles.set(t, new Set([id]));
  };
  for (const t of dirTerms) hold(t);
  for (const t of named.stem) if (!dirTerms.includes(t)) hold(t);
  facts.stemCounts.set(fact.stemKey, (facts.stemCounts.get(fact.stemKey) ?? 0) + 1);
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
