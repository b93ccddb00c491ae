/**
 * Loads the map's inputs from the index: every file, its non-local definitions (the map's tags) and how often
 * each file references each identifier. This is the expensive part, so it is cached per index version; and since
 * each file's part depends on that file's rows alone, a graph of an earlier version of the same index is patched:
 * only the files whose rows changed are read again, and the graph is assembled from the parts as a whole read
 * would assemble it (at 100k files a whole read was ~9 s of stepping 4.9M rows through sql.js).
 */
import type { SqlValue } from 'sql.js';
import { classifyPath, PathClass } from '../navigation/path-class';
import type { IndexDatabase } from '../store/database';
import { FILE_STAMP_SQL } from '../store/file-stamp';
import { localeOrder } from '../strings';
import { IdentGraphBuilder } from './ident-graph';
import { TagTable } from './tag-table';
import type { MapData, MapSources, MapTag } from './types';

const CALLABLE = new Set(['function', 'method']);
/** A map is read to learn a codebase's interfaces: a test helper or an example is rarely what the reader needs. */
const CLASS_WEIGHT: Record<PathClass, number> = { [PathClass.Source]: 1, [PathClass.Peripheral]: 0.3, [PathClass.Test]: 0.1 };
/** Changed files up to which their rows are looked up by file; past it, the tables are scanned once. */
const MAX_LOOKED_UP = 2000;
/** File ids per `IN (…)` lookup. */
const LOOKUP_BATCH = 500;

// Each symbol row is consumed as it is stepped (rows as arrays, not objects: no column lookups per row), and the
// strings a tag keeps are standalone ones sql.js decoded (a slice of a larger string keeps all of it alive, which once
// made the tags ~700 bytes each). Qualified names are needed only while loading; they and signatures are fetched
// again for the tags a map shows.

/**
 * The map's inputs for index version `version`. `previous`, a graph of an earlier version of the same index (same
 * created_at: its file and name ids mean the same), lends the parts of the files whose rows did not change.
 */
export function loadMapData(db: IndexDatabase, version: string, previous?: MapData): MapData {
  const files: string[] = [];
  const ids: number[] = [];
  const stamps: string[] = [];
  db.each(`SELECT id, path, ${FILE_STAMP_SQL} FROM files ORDER BY path`, [], (r) => {
    ids.push(Number(r[0]));
    files.push(String(r[1]));
    stamps.push(String(r[2]));
  });
  const lent = lentParts(previous, files, ids, stamps);
  const changed: number[] = [];
  for (let f = 0; f < files.length; f++) if (lent[f]! < 0) changed.push(f);
  const parts: Parts = { ids, fileIndex: new Map(ids.map((id, f) => [id, f])), lent, changed, previous };
  const graph = new IdentGraphBuilder();
  const tags = readTags(db, parts, graph);
  const refs = readRefs(db, parts);
  // References come counted per (file, name) from ref_counts, kept by the index on every write (store/ref-counts.ts):
  // a row per pair instead of one per reference. Names are the index's interned ids, looked up once each; pairs whose
  // name no file defines are dropped here, not in SQL (filtering there by the symbols' names cost ~5x the plain
  // scans). Each (file, identifier) pair is one entry, so the order within a file does not matter; files go in id
  // order, as the references did when they were counted here.
  const names = nameIdsOf(db, graph, previous);
  // ref_names ids are dense (rows are only added), so an array indexed by them; -1: no file defines the name.
  const identOfNameId = new Int32Array(names.lastNameId + 1).fill(-1);
  names.nameIds.forEach((id, ident) => {
    if (id >= 0) identOfNameId[id] = ident;
  });
  const byId = Int32Array.from(files, (_, f) => f).sort((a, b) => ids[a]! - ids[b]!);
  const idents = graph.build((emit) => {
    for (const f of byId) {
      for (let k = refs.refStart[f]!; k < refs.refStart[f + 1]!; k++) {
        const ident = identOfNameId[refs.refNames[k]!] ?? -1;
        if (ident >= 0) emit(ident, f, refs.refCounts[k]!);
      }
    }
  });
  const fileWeight = Float64Array.from(files, (p, f) => (lent[f]! >= 0 ? previous!.fileWeight[lent[f]!]! : CLASS_WEIGHT[classifyPath(p)]));
  // Places in collation order stay right while the paths do (an edit in place); an added or removed file moves them.
  const samePaths = previous !== undefined && previous.files.length === files.length && files.every((p, f) => previous.files[f] === p);
  const sources: MapSources = { fileIds: Int32Array.from(ids), fileStamps: stamps, ...refs, ...names, reread: changed.length };
  return {
    version, files, fileWeight, tags, idents, details: new Map(), pathOrder: samePaths ? previous.pathOrder : localeOrder(files),
    sources,
  };
}

/** New identifiers past which ref_names is scanned whole rather than looked up by name. */
const MAX_LOOKED_UP_NAMES = 5000;

/**
 * Per identifier of `graph`, its id in ref_names (-1: nothing references that name). From `previous` for the
 * identifiers it had: ref_names rows are only added, never renumbered, so only the rows added since (ids after its
 * last) and the identifiers new to the graph are looked up; a whole scan of ref_names cost ~0.2 s at 100k files.
 */
function nameIdsOf(db: IndexDatabase, graph: IdentGraphBuilder, previous: MapData | undefined): Pick<MapSources, 'nameIds' | 'lastNameId'> {
  const names = graph.definedNames();
  const lastNameId = Number(db.get('SELECT max(id) AS n FROM ref_names')?.n ?? 0);
  const nameIds = new Int32Array(names.length).fill(-1);
  const record = (r: SqlValue[]) => {
    const ident = graph.identOf(String(r[1]));
    if (ident !== undefined) nameIds[ident] = Number(r[0]);
  };
  const fresh: string[] = [];
  if (previous) {
    const before = previous.idents.index;
    names.forEach((name, ident) => {
      const old = before.get(name);
      if (old === undefined) fresh.push(name);
      else nameIds[ident] = previous.sources.nameIds[old]!;
    });
  }
  if (!previous || fresh.length > MAX_LOOKED_UP_NAMES) {
    db.each('SELECT id, name FROM ref_names', [], record);
    return { nameIds, lastNameId };
  }
  if (lastNameId > previous.sources.lastNameId) db.each('SELECT id, name FROM ref_names WHERE id > ?', [previous.sources.lastNameId], record);
  for (let i = 0; i < fresh.length; i += LOOKUP_BATCH) {
    const part = fresh.slice(i, i + LOOKUP_BATCH);
    db.each(`SELECT id, name FROM ref_names WHERE name IN (${part.map(() => '?').join(',')})`, part, record);
  }
  return { nameIds, lastNameId };
}

/** Per file, its index in `previous` when its rows there are still the index's (same id, path and version), else -1. */
function lentParts(previous: MapData | undefined, files: string[], ids: number[], stamps: string[]): Int32Array {
  const lent = new Int32Array(files.length).fill(-1);
  if (!previous) return lent;
  const before = previous.sources;
  const at = new Map<number, number>();
  before.fileIds.forEach((id, f) => at.set(id, f));
  for (let f = 0; f < files.length; f++) {
    const p = at.get(ids[f]!);
    if (p !== undefined && previous.files[p] === files[f] && before.fileStamps[p] === stamps[f]) lent[f] = p;
  }
  return lent;
}

/** Where each file's part comes from. */
interface Parts {
  /** Per file (in path order), its row id in the index. */
  ids: number[];
  /** Row id → file. */
  fileIndex: Map<number, number>;
  /** Per file, its index in `previous` when its part is lent from there, else -1. */
  lent: Int32Array;
  /** Files whose part is read from the index. */
  changed: number[];
  previous: MapData | undefined;
}

/**
 * Rows of `sql` (whose first column is a file id; `tail` follows its WHERE clause) for the changed files: looked up
 * by file when they are few, else one scan of the table with the rows of unchanged files skipped.
 */
function eachRowOf(db: IndexDatabase, sql: string, { ids, fileIndex, lent, changed }: Parts, fn: (file: number, row: SqlValue[]) => void, tail = ''): void {
  const step = (r: SqlValue[]) => {
    const f = fileIndex.get(Number(r[0]));
    if (f !== undefined && lent[f]! < 0) fn(f, r);
  };
  if (changed.length > MAX_LOOKED_UP || changed.length === ids.length) {
    db.each(`${sql} ${tail}`, [], step);
    return;
  }
  for (let i = 0; i < changed.length; i += LOOKUP_BATCH) {
    const part = changed.slice(i, i + LOOKUP_BATCH).map((f) => ids[f]!);
    db.each(`${sql} WHERE file_id IN (${part.map(() => '?').join(',')}) ${tail}`, part, step);
  }
}

/**
 * Per file, its tags: lent by `previous`, or read from the symbols of the changed files; each tag's name is defined in
 * `graph`, file by file in path order. A file's rows are turned into its tags as soon as the next file's begin (a
 * file's rows are written together), so one file's rows are held at a time, and its tags go into columns: held as
 * objects until every row was read, the 2M rows at 100k files took ~370 MB. A file whose rows come in more than one
 * run is read again on its own.
 */
function readTags(db: IndexDatabase, parts: Parts, graph: IdentGraphBuilder): TagTable {
  const { lent, previous } = parts;
  const n = lent.length;
  const read = new ReadTags();
  // Where each changed file's tags are in `read` (-1: no rows read).
  const runStart = new Int32Array(n).fill(-1);
  const runLength = new Int32Array(n);
  const sql = 'SELECT file_id, name, qualified_name, kind, container IS NOT NULL, name_line, line_start, line_end, id FROM symbols';
  const loaded = (r: SqlValue[]): LoadedTag => ({
    id: Number(r[8]), name: String(r[1]), qualifiedName: String(r[2]), kind: String(r[3]), line: Number(r[5]),
    lineStart: Number(r[6]), lineEnd: Number(r[7]), nested: Number(r[4]) === 1,
  });
  const keep = (f: number, rows: LoadedTag[]): void => {
    const list = keepNonLocal(rows);
    runStart[f] = read.size;
    runLength[f] = list.length;
    for (const t of list) read.push(t);
  };
  const split = new Set<number>();
  let file = -1;
  let rows: LoadedTag[] = [];
  const close = (): void => {
    if (file < 0) return;
    if (runStart[file]! < 0) keep(file, rows);
    else split.add(file);
  };
  eachRowOf(db, sql, parts, (f, r) => {
    if (f !== file) {
      close();
      file = f;
      rows = [];
    }
    rows.push(loaded(r));
  });
  close();
  if (split.size) {
    const again = new Map<number, LoadedTag[]>([...split].map((f) => [f, []]));
    eachRowOf(db, sql, { ...parts, changed: [...split] }, (f, r) => again.get(f)?.push(loaded(r)));
    for (const [f, list] of again) keep(f, list);
  }
  return assemble(read, { lent, runStart, runLength, previous: previous?.tags }, graph);
}

/**
 * The table in file (path) order from the lent and the read parts, defining each tag's name in `graph` in that
 * order (identifiers are numbered as first defined). Kinds are numbered in the order they first appear.
 */
function assemble(read: ReadTags, from: { lent: Int32Array; runStart: Int32Array; runLength: Int32Array; previous: TagTable | undefined }, graph: IdentGraphBuilder): TagTable {
  const { lent, runStart, runLength, previous } = from;
  const n = lent.length;
  const start = new Int32Array(n + 1);
  for (let f = 0; f < n; f++) start[f + 1] = start[f]! + (lent[f]! >= 0 ? previous!.count(lent[f]!) : Math.max(runLength[f]!, 0));
  const total = start[n]!;
  const id = new Float64Array(total);
  const name = new Int32Array(total);
  const kind = new Int32Array(total);
  const line = new Int32Array(total);
  const parent = new Int32Array(total);
  const kinds: string[] = [];
  const kindNumbers = new Map<string, number>();
  for (let f = 0; f < n; f++) {
    const p = lent[f]!;
    let at = start[f]!;
    if (p >= 0) {
      for (let k = previous!.start[p]!; k < previous!.start[p + 1]!; k++, at++) {
        id[at] = previous!.id[k]!;
        name[at] = graph.define(previous!.names[previous!.name[k]!]!, f);
        kind[at] = number(kindNumbers, kinds, previous!.kinds[previous!.kind[k]!]!);
        line[at] = previous!.line[k]!;
        parent[at] = previous!.parent[k]!;
      }
      continue;
    }
    for (let k = runStart[f]!; k < runStart[f]! + runLength[f]!; k++, at++) {
      id[at] = read.id[k]!;
      name[at] = graph.define(read.names[read.name[k]!]!, f);
      kind[at] = number(kindNumbers, kinds, read.kinds[read.kind[k]!]!);
      line[at] = read.line[k]!;
      parent[at] = read.parent[k]!;
    }
  }
  return new TagTable(start, id, name, kind, line, parent, graph.definedNames(), kinds);
}

/** Tags as read, in growing columns; names and kinds numbered in the order read. */
class ReadTags {
  size = 0;
  id = new Float64Array(1024);
  name = new Int32Array(1024);
  kind = new Int32Array(1024);
  line = new Int32Array(1024);
  parent = new Int32Array(1024);
  readonly names: string[] = [];
  readonly kinds: string[] = [];
  private readonly nameNumbers = new Map<string, number>();
  private readonly kindNumbers = new Map<string, number>();

  push(t: MapTag): void {
    if (this.size === this.id.length) this.grow();
    const k = this.size++;
    this.id[k] = t.id;
    this.name[k] = number(this.nameNumbers, this.names, t.name);
    this.kind[k] = number(this.kindNumbers, this.kinds, t.kind);
    this.line[k] = t.line;
    this.parent[k] = t.parent ?? -1;
  }

  private grow(): void {
    const twice = <T extends Int32Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.id = twice(this.id);
    this.name = twice(this.name);
    this.kind = twice(this.kind);
    this.line = twice(this.line);
    this.parent = twice(this.parent);
  }
}

/** The number of `s` in `list`, added at the end when new. */
function number(numbers: Map<string, number>, list: string[], s: string): number {
  let no = numbers.get(s);
  if (no === undefined) numbers.set(s, (no = list.push(s) - 1));
  return no;
}

/** Per file, the names it references and how often: lent by `previous`, or read from ref_counts for the changed files. */
function readRefs(db: IndexDatabase, parts: Parts): Pick<MapSources, 'refStart' | 'refNames' | 'refCounts'> {
  const { lent, previous } = parts;
  const n = lent.length;
  const before = previous?.sources;
  // Each changed file's pairs are counted first (SQLite aggregates them in key order, no row goes through sql.js), so
  // its pairs are then placed straight into columns of their final size: collected first, the 4.9M pairs of a whole
  // read at 100k files were ~150 MB of growing columns at the map build's peak.
  const refStart = new Int32Array(n + 1);
  eachRowOf(db, 'SELECT file_id, count(*) FROM ref_counts', parts, (f, r) => {
    refStart[f + 1] = Number(r[1]);
  }, 'GROUP BY file_id');
  for (let f = 0; f < n; f++) {
    const p = lent[f]!;
    if (p >= 0) refStart[f + 1] = before!.refStart[p + 1]! - before!.refStart[p]!;
  }
  for (let f = 0; f < n; f++) refStart[f + 1]! += refStart[f]!;
  const refNames = new Int32Array(refStart[n]!);
  const refCounts = new Int32Array(refStart[n]!);
  const fill = refStart.slice(0, n);
  for (let f = 0; f < n; f++) {
    const p = lent[f]!;
    if (p < 0) continue;
    const from = before!.refStart[p]!;
    const to = before!.refStart[p + 1]!;
    refNames.set(before!.refNames.subarray(from, to), fill[f]!);
    refCounts.set(before!.refCounts.subarray(from, to), fill[f]!);
  }
  // The same rows as counted (one statement after the other, nothing writes in between), in the order read.
  eachRowOf(db, 'SELECT file_id, name_id, n FROM ref_counts', parts, (f, r) => {
    const at = fill[f]!++;
    refNames[at] = Number(r[1]);
    refCounts[at] = Number(r[2]);
  });
  return { refStart, refNames, refCounts };
}

/**
 * Fetches the qualified names and signatures of `tags` not cached yet (the map shows a few hundred of its 140k
 * definitions at 10k files; kept on every tag, qualified names alone were ~6 MB).
 */
export function loadDetails(db: IndexDatabase, data: MapData, tags: MapTag[]): void {
  const missing = [...new Set(tags.filter((t) => !data.details.has(t.id)).map((t) => t.id))];
  for (let i = 0; i < missing.length; i += 500) {
    const ids = missing.slice(i, i + 500);
    for (const r of db.all(`SELECT id, qualified_name, signature FROM symbols WHERE id IN (${ids.map(() => '?').join(',')})`, ids)) {
      data.details.set(Number(r.id), { qualifiedName: String(r.qualified_name), signature: String(r.signature ?? '') });
    }
  }
}
/** A symbol row as loaded, before local definitions are dropped. */
interface LoadedTag {
  id: number;
  name: string;
  qualifiedName: string;
  kind: string;
  line: number;
  lineStart: number;
  lineEnd: number;
  /** The symbol has a container. */
  nested: boolean;
}

/**
 * Drops definitions local to a function (closures, nested helpers) — a map shows a file's interface — and links
 * each kept tag to its container so rendering can print the class above its methods.
 */
function keepNonLocal(all: LoadedTag[]): MapTag[] {
  // Outer definitions before the ones they contain.
  all.sort((a, b) => a.lineStart - b.lineStart || b.lineEnd - a.lineEnd || a.id - b.id);
  const byQualified = new Map<string, LoadedTag>();
  for (const t of all) if (!byQualified.has(t.qualifiedName)) byQualified.set(t.qualifiedName, t);
  const kept: MapTag[] = [];
  const keptIndex = new Map<LoadedTag, number>();
  for (const t of all) {
    let parentTag: LoadedTag | undefined;
    if (t.nested) {
      const container = t.qualifiedName.slice(0, t.qualifiedName.length - t.name.length - 1);
      parentTag = byQualified.get(container);
      if (parentTag && (CALLABLE.has(parentTag.kind) || !keptIndex.has(parentTag))) continue;
      // A container declared elsewhere in the file (a Go receiver type, a Rust impl target) is not a heading for it.
      if (parentTag && (parentTag.lineStart > t.lineStart || parentTag.lineEnd < t.lineStart)) parentTag = undefined;
    }
    // Every field in the literal, `parent` too: one added later would cost each tag a separate property store.
    const tag: MapTag = { id: t.id, name: t.name, kind: t.kind, line: t.line, parent: parentTag ? keptIndex.get(parentTag)! : undefined, index: kept.length };
    keptIndex.set(t, kept.length);
    kept.push(tag);
  }
  return kept;
}
