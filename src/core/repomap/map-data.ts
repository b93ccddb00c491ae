/**
 * Loads the map's inputs from the index: every file, its non-local definitions (the map's tags) and how often
 * each file references each defined identifier. This is the expensive part, so it is cached per index version.
 */
import { classifyPath, PathClass } from '../navigation/path-class';
import type { IndexDatabase } from '../store/database';
import { SYMBOL_KIND_CODES } from '../store/schema';
import { localeOrder } from '../strings';
import { IdentGraphBuilder } from './ident-graph';
import type { MapData, MapTag } from './types';

const CALLABLE = new Set(['function', 'method']);
/** A map is read to learn a codebase's interfaces: a test helper or an example is rarely what the reader needs. */
const CLASS_WEIGHT: Record<PathClass, number> = { [PathClass.Source]: 1, [PathClass.Peripheral]: 0.3, [PathClass.Test]: 0.1 };

// Each symbol row is consumed as it is stepped (rows as arrays, not objects: no column lookups per row), and the
// strings a tag keeps are standalone ones sql.js decoded (a slice of a larger string keeps all of it alive, which once
// made the tags ~700 bytes each). Qualified names are needed only while loading; they and signatures are fetched
// again for the tags a map shows.

export function loadMapData(db: IndexDatabase, version: string): MapData {
  const files: string[] = [];
  const fileIndex = new Map<number, number>();
  for (const r of db.all('SELECT id, path FROM files ORDER BY path')) {
    fileIndex.set(Number(r.id), files.length);
    files.push(String(r.path));
  }
  // Names are the index's interned ids (ref_names: symbols' and references' names), read once, so every tag and
  // reference of a name shares one string; rows come from symbol_rows, not the view symbols, which would look up
  // each row's name (~8 % of a map's CPU at 8k files).
  const names: string[] = [];
  db.each('SELECT id, name FROM ref_names', [], (r) => {
    names[Number(r[0])] = String(r[1]);
  });
  const all: LoadedTag[][] = files.map(() => []);
  db.each('SELECT file_id, name_id, container, kind, name_line, line_start, line_end, id FROM symbol_rows', [], (r) => {
    const file = fileIndex.get(Number(r[0]));
    if (file === undefined) return;
    const name = names[Number(r[1])]!;
    const tag: LoadedTag = {
      id: Number(r[7]), name, qualifiedName: r[2] === null ? name : `${String(r[2])}.${name}`, kind: SYMBOL_KIND_CODES[Number(r[3])] ?? 'other',
      line: Number(r[4]), lineStart: Number(r[5]), lineEnd: Number(r[6]), nested: r[2] !== null,
    };
    all[file]!.push(tag);
  });
  const graph = new IdentGraphBuilder();
  const tags: MapTag[][] = all.map((list, f) => {
    // Outer definitions before the ones they contain.
    list.sort((a, b) => a.lineStart - b.lineStart || b.lineEnd - a.lineEnd || a.id - b.id);
    const kept = keepNonLocal(list);
    all[f] = [];
    for (const t of kept) graph.define(t.name, f);
    return kept;
  });
  // References come counted per (file, name) from ref_counts, kept by the index on every write (store/ref-counts.ts):
  // a row per pair instead of one per reference (794k -> 193k rows at 8k files). Names are the index's interned ids,
  // looked up once each; pairs whose name no file defines are dropped here, not in SQL (filtering there by the
  // symbols' names cost ~5x the plain scans). Each (file, identifier) pair is one row, so the order within a file
  // does not matter; files come in id order, as the references did when they were counted here.
  const identOfNameId = new Map<number, number>();
  names.forEach((name, id) => {
    const ident = graph.identOf(name);
    if (ident !== undefined) identOfNameId.set(id, ident);
  });
  db.each('SELECT file_id, name_id, n FROM ref_counts ORDER BY file_id', [], (r) => {
    const ident = identOfNameId.get(Number(r[1]));
    if (ident === undefined) return;
    const file = fileIndex.get(Number(r[0]));
    if (file !== undefined) graph.reference(ident, file, Number(r[2]));
  });
  const fileWeight = Float64Array.from(files, (p) => CLASS_WEIGHT[classifyPath(p)]);
  return { version, files, fileWeight, tags, idents: graph.build(), details: new Map(), pathOrder: localeOrder(files) };
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
