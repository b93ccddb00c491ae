/**
 * Loads the map's inputs from the index: every file, its non-local definitions (the map's tags) and how often
 * each file references each defined identifier. This is the expensive part, so it is cached per index version.
 */
import { classifyPath, PathClass } from '../navigation/path-class';
import type { IndexDatabase } from '../store/database';
import type { MapData, MapTag } from './types';

const CALLABLE = new Set(['function', 'method']);
/** A map is read to learn a codebase's interfaces: a test helper or an example is rarely what the reader needs. */
const CLASS_WEIGHT: Record<PathClass, number> = { [PathClass.Source]: 1, [PathClass.Peripheral]: 0.3, [PathClass.Test]: 0.1 };

// Each symbol row is consumed as it is stepped (rows as arrays, not objects: no column lookups per row), and the
// strings a tag keeps are standalone ones sql.js decoded (a slice of a larger string keeps all of it alive, which once
// made the tags ~700 bytes each). Signatures load lazily.

export function loadMapData(db: IndexDatabase, version: string): MapData {
  const files: string[] = [];
  const fileIndex = new Map<number, number>();
  for (const r of db.all('SELECT id, path FROM files ORDER BY path')) {
    fileIndex.set(Number(r.id), files.length);
    files.push(String(r.path));
  }
  // One string per distinct name and kind, shared by every tag and count that holds it.
  const strings = new Map<string, string>();
  const intern = (s: string): string => {
    const known = strings.get(s);
    if (known !== undefined) return known;
    strings.set(s, s);
    return s;
  };
  const tags: MapTag[][] = files.map(() => []);
  db.each('SELECT file_id, name, qualified_name, kind, container IS NOT NULL, name_line, line_start, line_end, id FROM symbols', [], (r) => {
    const file = fileIndex.get(Number(r[0]));
    if (file === undefined) return;
    const tag: MapTag = {
      file, id: Number(r[8]), name: intern(String(r[1])), qualifiedName: intern(String(r[2])), kind: intern(String(r[3])), line: Number(r[5]),
      lineStart: Number(r[6]), lineEnd: Number(r[7]), index: 0, ...(Number(r[4]) === 1 ? { parent: -1 } : {}),
    };
    tags[file]!.push(tag);
  });
  // Outer definitions before the ones they contain.
  for (const list of tags) list.sort((a, b) => a.lineStart - b.lineStart || b.lineEnd - a.lineEnd || a.id - b.id);
  const defines = new Map<string, number[]>();
  for (let f = 0; f < tags.length; f++) {
    const kept = keepNonLocal(tags[f]!);
    tags[f] = kept;
    for (const t of kept) {
      const list = defines.get(t.name);
      if (!list) defines.set(t.name, [f]);
      else if (list[list.length - 1] !== f) list.push(f);
    }
  }
  const references = new Map<string, Map<number, number>>();
  const referencedBy = new Map<number, Map<string, number>>();
  // References are counted by the index's interned name ids (ref_rows, clustered by file), not by their names: a
  // million references stepped as pairs of numbers, instead of a million name strings decoded or split (a transient
  // ~80 MB at 10k files). Only the names some file defines are looked up, once each.
  const definedName = new Map<number, string>();
  db.each('SELECT id, name FROM ref_names', [], (r) => {
    const name = strings.get(String(r[1]));
    if (name !== undefined && defines.has(name)) definedName.set(Number(r[0]), name);
  });
  let counts: Map<string, number> | undefined;
  let countsFile = -1;
  const flush = () => {
    if (!counts?.size) return;
    referencedBy.set(countsFile, counts);
    for (const [name, n] of counts) {
      let byFile = references.get(name);
      if (!byFile) references.set(name, (byFile = new Map()));
      byFile.set(countsFile, n);
    }
  };
  db.each('SELECT file_id, name_id FROM ref_rows ORDER BY file_id', [], (r) => {
    const name = definedName.get(Number(r[1]));
    if (name === undefined) return;
    const file = fileIndex.get(Number(r[0]));
    if (file === undefined) return;
    if (file !== countsFile) {
      flush();
      counts = new Map();
      countsFile = file;
    }
    counts!.set(name, (counts!.get(name) ?? 0) + 1);
  });
  flush();
  const fileWeight = Float64Array.from(files, (p) => CLASS_WEIGHT[classifyPath(p)]);
  return { version, files, fileWeight, tags, defines, references, referencedBy, signatures: new Map() };
}

/** Fetches the signatures of `tags` that are not cached yet (the map shows a few hundred of tens of thousands). */
export function loadSignatures(db: IndexDatabase, data: MapData, tags: MapTag[]): void {
  const missing = [...new Set(tags.filter((t) => !data.signatures.has(t.id)).map((t) => t.id))];
  for (let i = 0; i < missing.length; i += 500) {
    const ids = missing.slice(i, i + 500);
    for (const r of db.all(`SELECT id, signature FROM symbols WHERE id IN (${ids.map(() => '?').join(',')})`, ids)) {
      data.signatures.set(Number(r.id), String(r.signature ?? ''));
    }
  }
}

/**
 * Drops definitions local to a function (closures, nested helpers) — a map shows a file's interface — and links
 * each kept tag to its container so rendering can print the class above its methods.
 */
function keepNonLocal(all: MapTag[]): MapTag[] {
  const byQualified = new Map<string, MapTag>();
  for (const t of all) if (!byQualified.has(t.qualifiedName)) byQualified.set(t.qualifiedName, t);
  const kept: MapTag[] = [];
  const keptIndex = new Map<MapTag, number>();
  for (const t of all) {
    let parentTag: MapTag | undefined;
    if (t.parent !== undefined) {
      const container = t.qualifiedName.slice(0, t.qualifiedName.length - t.name.length - 1);
      parentTag = byQualified.get(container);
      if (parentTag && (CALLABLE.has(parentTag.kind) || !keptIndex.has(parentTag))) continue;
      // A container declared elsewhere in the file (a Go receiver type, a Rust impl target) is not a heading for it.
      if (parentTag && (parentTag.lineStart > t.lineStart || parentTag.lineEnd < t.lineStart)) parentTag = undefined;
    }
    // Built field by field: `delete` on a copy would turn each tag into a dictionary-mode object (~800 bytes).
    const tag: MapTag = {
      file: t.file, id: t.id, name: t.name, qualifiedName: t.qualifiedName, kind: t.kind, line: t.line, lineStart: t.lineStart, lineEnd: t.lineEnd,
      index: kept.length,
    };
    if (parentTag) tag.parent = keptIndex.get(parentTag)!;
    keptIndex.set(t, kept.length);
    kept.push(tag);
  }
  return kept;
}
