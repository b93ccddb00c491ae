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

// Each symbol row is consumed as it is stepped (rows as arrays, not objects: no column lookups per row). The
// strings sql.js decodes are standalone; pieces split from a concatenated string are slices that keep the whole
// concatenation alive, which made the tags ~700 bytes each (~100 MB on a 10k-file index). Signatures load lazily.
const US = String.fromCharCode(31);

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
  for (const r of db.all('SELECT file_id, group_concat(name, char(31)) AS names FROM refs GROUP BY file_id')) {
    const file = fileIndex.get(Number(r.file_id));
    if (file === undefined) continue;
    const counts = new Map<string, number>();
    // The split pieces are slices of the concatenation: the counts are keyed by the tags' own strings instead.
    for (const piece of String(r.names).split(US)) {
      if (!defines.has(piece)) continue;
      const name = strings.get(piece)!;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    if (!counts.size) continue;
    referencedBy.set(file, counts);
    for (const [name, n] of counts) {
      let byFile = references.get(name);
      if (!byFile) references.set(name, (byFile = new Map()));
      byFile.set(file, n);
    }
  }
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
