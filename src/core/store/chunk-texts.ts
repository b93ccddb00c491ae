/**
 * Chunk text as it was indexed, rebuilt from what the index keeps: the file's text (file_texts), its symbols and the
 * chunk's span, by the rule the extractor used (parse/chunk-text.ts); so are symbols' doc comments (parse/symbol-doc.ts). The disk is never read: it may have changed.
 * Unpacked texts are kept in a small LRU per database, keyed by text id (an id always means one content).
 */
import { CONTAINER_KINDS, fileChunkText, symbolChunk, type ChunkSymbol } from '../parse/chunk-text';
import { unpackContent } from '../parse/file-content';
import { symbolDoc } from '../parse/symbol-doc';
import type { SymbolKind } from '../parse/types';
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from './database';

const CACHED_TEXTS = 64;
const BATCH = 200;

const caches = new WeakMap<IndexDatabase, Map<number, string[]>>();

function textLines(db: IndexDatabase, textId: number): string[] {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let lines = cache.get(textId);
  if (lines) {
    cache.delete(textId); // re-inserted below: most recently used last
  } else {
    const row = db.getPrepared('SELECT content FROM file_texts WHERE id = ?', [textId]);
    lines = row ? unpackContent(row.content as Uint8Array).split('\n') : [];
    if (cache.size >= CACHED_TEXTS) cache.delete(cache.keys().next().value!);
  }
  cache.set(textId, lines);
  return lines;
}

interface FileSymbols {
  list: ChunkSymbol[];
  /** Symbol row id → place in `list` (extraction order). */
  at: Map<number, number>;
}

const SYMBOL_COLUMNS = 'id, file_id, qualified_name, kind, container, line_start, line_end, signature';

/** The symbols of the file with these `lines`, their doc comments rebuilt from the lines. */
function symbolList(rows: Record<string, SqlValue>[], lines: readonly string[]): FileSymbols {
  const list: ChunkSymbol[] = [];
  const at = new Map<number, number>();
  for (const r of rows) {
    at.set(Number(r.id), list.length);
    const doc = symbolDoc(lines, Number(r.line_start));
    list.push({
      qualifiedName: String(r.qualified_name), kind: String(r.kind) as SymbolKind, lineStart: Number(r.line_start), lineEnd: Number(r.line_end),
      signature: String(r.signature), ...(r.container !== null ? { container: String(r.container) } : {}), ...(doc !== undefined ? { doc } : {}),
    });
  }
  return { list, at };
}

/**
 * A file's lines as indexed (undefined for a file not in the index). For one line or a span of lines this is
 * cheaper than a chunk's text, which also needs the chunk's symbol (and a container's members) to rebuild.
 */
export function indexedLines(db: IndexDatabase, fileId: number): readonly string[] | undefined {
  const row = db.getPrepared('SELECT text_id FROM files WHERE id = ?', [fileId]);
  return row ? textLines(db, Number(row.text_id)) : undefined;
}

/** Texts of the chunks with these ids; an id that is not (or no longer) in the index is absent from the map. */
export function chunkTexts(db: IndexDatabase, ids: Iterable<number>): Map<number, string> {
  const out = new Map<number, string>();
  const all = [...new Set(ids)];
  for (let i = 0; i < all.length; i += BATCH) {
    const part = all.slice(i, i + BATCH);
    const rows = db.all(
      `SELECT c.id AS chunk_id, c.file_id, c.symbol_id, c.line_start AS chunk_start, c.line_end AS chunk_end, f.text_id
       FROM chunk_spans c JOIN files f ON f.id = c.file_id WHERE c.id IN (${part.map(() => '?').join(',')}) ORDER BY c.file_id`,
      part,
    );
    // The chunk's own symbol comes with it: only a container's chunk (its head and its members' signatures) needs the
    // rest of the file's symbols. Reading them all for every chunk was ~6 % of a first question at 10k files.
    const symbolIds = rows.filter((r) => r.symbol_id !== null).map((r) => Number(r.symbol_id));
    const symbols = new Map<number, Record<string, SqlValue>>();
    if (symbolIds.length) {
      for (const s of db.all(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE id IN (${symbolIds.map(() => '?').join(',')})`, symbolIds)) symbols.set(Number(s.id), s);
    }
    for (const r of rows) {
      const fileId = Number(r.file_id);
      const lines = textLines(db, Number(r.text_id));
      const chunkId = Number(r.chunk_id);
      if (r.symbol_id === null) {
        out.set(chunkId, fileChunkText(lines, Number(r.chunk_start), Number(r.chunk_end)));
        continue;
      }
      // A symbol of another file (or none) has no chunk here, as when the file's own symbols were searched for it.
      const symbol = symbols.get(Number(r.symbol_id));
      if (symbol === undefined || Number(symbol.file_id) !== fileId) continue;
      const own = symbolList([symbol], lines).list;
      if (!CONTAINER_KINDS.has(own[0]!.kind)) {
        out.set(chunkId, symbolChunk(lines, own, 0).text);
        continue;
      }
      // A container's members are the file's symbols that name it as their container, in extraction order with it.
      const family = symbolList(db.all(
        `SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE file_id = ? AND (id = ? OR container = ?) ORDER BY id`, [fileId, Number(r.symbol_id), own[0]!.qualifiedName],
      ), lines);
      const index = family.at.get(Number(r.symbol_id));
      if (index !== undefined) out.set(chunkId, symbolChunk(lines, family.list, index).text);
    }
  }
  return out;
}

/** The doc comment of the definition starting on `lineStart` of the indexed file `fileId`, as the extractor kept it. */
export function indexedDoc(db: IndexDatabase, fileId: number, lineStart: number): string | undefined {
  const lines = indexedLines(db, fileId);
  return lines ? symbolDoc(lines, lineStart) : undefined;
}

/**
 * Texts of one file's chunks with row ids in `chunks`, its symbols' ids in `symbols` (inclusive ranges, FileRows in
 * file-writes.ts), in chunk id order with each chunk's symbol name: read by row id, so it needs no per-file index
 * (a bulk load copies files before those exist).
 */
export function spanTexts(db: IndexDatabase, fileId: number, textId: number, symbols: [number, number], chunks: [number, number]): Array<{ id: number; symbol?: string; text: string }> {
  const lines = textLines(db, textId);
  const of = symbolList(db.all(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id`, [fileId, ...symbols]), lines);
  const out: Array<{ id: number; symbol?: string; text: string }> = [];
  for (const [id, symbolId, lineStart, lineEnd] of db.rows('SELECT id, symbol_id, line_start, line_end FROM chunk_spans WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id', [fileId, ...chunks])) {
    if (symbolId === null) {
      out.push({ id: Number(id), text: fileChunkText(lines, Number(lineStart), Number(lineEnd)) });
      continue;
    }
    const index = of.at.get(Number(symbolId));
    if (index === undefined) throw new Error(`chunk ${String(id)} names symbol ${String(symbolId)}, which is not its file's`);
    out.push({ id: Number(id), symbol: of.list[index]!.qualifiedName, text: symbolChunk(lines, of.list, index).text });
  }
  return out;
}

/** One chunk's text, or undefined when the chunk is not in the index. */
export function chunkTextOf(db: IndexDatabase, id: number): string | undefined {
  return chunkTexts(db, [id]).get(id);
}
