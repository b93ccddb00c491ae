/**
 * Chunk text as it was indexed, rebuilt from what the index keeps: the file's text (file_texts), its symbols and the
 * chunk's span, by the rule the extractor used (parse/chunk-text.ts). The disk is never read: it may have changed.
 * Unpacked texts are kept in a small LRU per database, keyed by text id (an id always means one content).
 */
import { fileChunkText, symbolChunk, type ChunkSymbol } from '../parse/chunk-text';
import { unpackContent } from '../parse/file-content';
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

const SYMBOL_COLUMNS = 'id, qualified_name, kind, container, line_start, line_end, signature, doc';

function fileSymbols(db: IndexDatabase, fileId: number): FileSymbols {
  return symbolList(db.all(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE file_id = ? ORDER BY id`, [fileId]));
}

function symbolList(rows: Record<string, SqlValue>[]): FileSymbols {
  const list: ChunkSymbol[] = [];
  const at = new Map<number, number>();
  for (const r of rows) {
    at.set(Number(r.id), list.length);
    list.push({
      qualifiedName: String(r.qualified_name), kind: String(r.kind) as SymbolKind, lineStart: Number(r.line_start), lineEnd: Number(r.line_end),
      signature: String(r.signature), ...(r.container !== null ? { container: String(r.container) } : {}), ...(r.doc !== null ? { doc: String(r.doc) } : {}),
    });
  }
  return { list, at };
}

/**
 * A file's lines as indexed (undefined for a file not in the index). For one line or a span of lines this is much
 * cheaper than a chunk's text, which needs all of the file's symbols to rebuild.
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
      `SELECT c.id, c.file_id, c.symbol_id, c.line_start, c.line_end, f.text_id FROM chunk_spans c JOIN files f ON f.id = c.file_id
       WHERE c.id IN (${part.map(() => '?').join(',')}) ORDER BY c.file_id`,
      part,
    );
    let symbols: { fileId: number; of: FileSymbols } | undefined;
    for (const r of rows) {
      const fileId = Number(r.file_id);
      const lines = textLines(db, Number(r.text_id));
      if (r.symbol_id === null) {
        out.set(Number(r.id), fileChunkText(lines, Number(r.line_start), Number(r.line_end)));
        continue;
      }
      if (symbols?.fileId !== fileId) symbols = { fileId, of: fileSymbols(db, fileId) };
      const index = symbols.of.at.get(Number(r.symbol_id));
      if (index !== undefined) out.set(Number(r.id), symbolChunk(lines, symbols.of.list, index).text);
    }
  }
  return out;
}

/**
 * Texts of one file's chunks with row ids in `chunks`, its symbols' ids in `symbols` (inclusive ranges, FileRows in
 * file-writes.ts), in chunk id order with each chunk's symbol name: read by row id, so it needs no per-file index
 * (a bulk load copies files before those exist).
 */
export function spanTexts(db: IndexDatabase, fileId: number, textId: number, symbols: [number, number], chunks: [number, number]): Array<{ id: number; symbol?: string; text: string }> {
  const lines = textLines(db, textId);
  const of = symbolList(db.all(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id`, [fileId, ...symbols]));
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
