/** Writing one file's extraction into the index, and removing it again. */
import { createHash } from 'node:crypto';
import { searchableText } from '../parse/identifiers';
import { spanTexts } from './chunk-texts';
import type { ExtractedReference, ParseResult } from '../parse/types';
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from './database';
import { insertRows } from './insert-rows';
import { copyRefCounts, writeRefCounts } from './ref-counts';
import { nameColumn, pathColumn } from './column-texts';
import { markFileDead } from './postings-writer';
import { REFERENCE_KIND_CODES, SYMBOL_KIND_CODES } from './schema';

export interface FileFacts {
  path: string;
  language: string;
  size: number;
  mtimeMs: number;
  hash: string;
  lines: number;
}

/**
 * Where one file's rows sit: the row ids each table gave them, as an inclusive range (empty when last < first). A
 * file's rows are written together, so each table holds them as one run of ids; a range reads them without the
 * per-file indexes, which a bulk load has not built yet.
 */
export interface FileRows {
  fileId: number;
  symbols: [number, number];
  chunks: [number, number];
  imports: [number, number];
  annotations: [number, number];
}

type RowTable = 'symbols' | 'chunks' | 'imports' | 'annotations';
const ROW_TABLES: Record<RowTable, string> = { symbols: 'symbol_rows', chunks: 'chunk_spans', imports: 'imports', annotations: 'annotations' };

/**
 * The last row id of each table: the next row gets the one after it. chunk_spans counts its AUTOINCREMENT sequence
 * too, which stays past ids deleted since. Taken from the mark the last file write left when no row changed since
 * (a run writes file after file: querying the tables each time was a tenth of the main thread's writing).
 */
function lastRowIds(db: IndexDatabase): Record<RowTable, number> {
  const mark = db.rowIdMark;
  if (mark && mark.changes === db.totalChanges()) return { ...(mark.ids as Record<RowTable, number>) };
  const r = db.getPrepared(`SELECT ${Object.entries(ROW_TABLES).map(([k, t]) => `(SELECT coalesce(max(rowid), 0) FROM ${t}) AS ${k}`).join(', ')},
    (SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'chunk_spans') AS chunk_seq`, [])!;
  return { symbols: Number(r.symbols), chunks: Math.max(Number(r.chunks), Number(r.chunk_seq)), imports: Number(r.imports), annotations: Number(r.annotations) };
}

/** Leaves the last row ids after a file's write (its rows `rows`) for the next write to start from. */
function markRowIds(db: IndexDatabase, rows: FileRows): void {
  db.rowIdMark = { changes: db.totalChanges(), ids: { symbols: rows.symbols[1], chunks: rows.chunks[1], imports: rows.imports[1], annotations: rows.annotations[1] } };
}


/** The rows of the indexed file at `path` (undefined when it is not indexed), found through the per-file indexes. */
export function indexedRows(db: IndexDatabase, path: string): FileRows | undefined {
  const file = db.getPrepared('SELECT id FROM files WHERE path = ?', [path]);
  if (!file) return undefined;
  const fileId = Number(file.id);
  const span = (t: RowTable): [number, number] => {
    const r = db.getPrepared(`SELECT coalesce(min(rowid), 1) AS lo, coalesce(max(rowid), 0) AS hi FROM ${ROW_TABLES[t]} WHERE file_id = ?`, [fileId])!;
    return [Number(r.lo), Number(r.hi)];
  };
  return { fileId, symbols: span('symbols'), chunks: span('chunks'), imports: span('imports'), annotations: span('annotations') };
}

const KIND_CODE = new Map(REFERENCE_KIND_CODES.map((k, i) => [k, i]));
const SYMBOL_KIND_CODE = new Map(SYMBOL_KIND_CODES.map((k, i) => [k, i]));

export function removeFile(db: IndexDatabase, path: string): void {
  const row = db.getPrepared('SELECT id, text_id FROM files WHERE path = ?', [path]);
  if (!row) return;
  const id = Number(row.id);
  const textId = Number(row.text_id);
  // The chunks' postings stay behind under their ids, listed as dead, until compaction rebuilds the postings.
  markFileDead(db, id, path);
  for (const table of ['chunk_spans', 'symbol_rows', 'ref_rows', 'ref_counts', 'imports', 'annotations']) {
    db.runPrepared(`DELETE FROM ${table} WHERE file_id = ?`, [id]);
  }
  db.runPrepared('DELETE FROM files WHERE id = ?', [id]);
  db.runPrepared('DELETE FROM file_texts WHERE id = ? AND NOT EXISTS (SELECT 1 FROM files WHERE text_id = ?)', [textId, textId]);
}

/** The id of the stored text with these packed bytes, stored now if no file had it. */
function textId(db: IndexDatabase, content: Uint8Array): number {
  const digest = createHash('sha1').update(content).digest();
  const known = db.getPrepared('SELECT id FROM file_texts WHERE digest = ?', [digest]);
  if (known) return Number(known.id);
  return Number(db.getPrepared('INSERT INTO file_texts(digest, content) VALUES (?,?) RETURNING id', [digest, content])!.id);
}

/** Replaces everything the index holds for `facts.path` with `result`. Call inside a transaction. */
export function writeFile(db: IndexDatabase, facts: FileFacts, result: ParseResult, now: number): FileRows {
  if (!result.content) throw new Error(`${facts.path}: the parse result has no packed content (made by the parser host)`);
  removeFile(db, facts.path);
  const before = lastRowIds(db);
  const text = textId(db, result.content);
  const fileId = Number(db.getPrepared(
    'INSERT INTO files(path, language, size, mtime, hash, lines, has_errors, annotations, indexed_at, chunk_chars, text_id) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id',
    [facts.path, facts.language, facts.size, facts.mtimeMs, facts.hash, facts.lines, result.hasSyntaxErrors ? 1 : 0,
      Object.keys(result.fileAnnotations).length ? JSON.stringify(result.fileAnnotations) : null, now, result.chunkChars ?? 0, text],
  )!.id);

  // Row ids are given, the ones SQLite would pick (the next after the last): asking it for each (last_insert_rowid)
  // was a fifth of the write time.
  const symbolIds = result.symbols.map((_, i) => before.symbols + 1 + i);
  let annotations = 0;
  const symbolRows: SqlValue[] = [];
  for (const [i, s] of result.symbols.entries()) {
    symbolRows.push(symbolIds[i]!, fileId, nameId(db, s.name), SYMBOL_KIND_CODE.get(s.kind) ?? SYMBOL_KIND_CODE.get('other')!, s.container ?? null,
      s.lineStart, s.lineEnd, s.nameLine, s.nameColumn, s.nameEndColumn, s.signature);
    for (const [k, v] of Object.entries(s.annotations)) {
      if (result.fileAnnotations[k] === v) continue;
      db.runPrepared('INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,?,?,?)', [fileId, symbolIds[i]!, k, v]);
      annotations++;
    }
  }
  insertRows(db, 'symbol_rows(id, file_id, name_id, kind, container, line_start, line_end, name_line, name_col, name_end_col, signature)', 11, symbolRows);
  for (const [k, v] of Object.entries(result.fileAnnotations)) {
    db.runPrepared('INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,NULL,?,?)', [fileId, k, v]);
    annotations++;
  }
  writeRefCounts(db, fileId, writeReferences(db, fileId, result.references, symbolIds));
  insertRows(db, 'imports(file_id, source, names, line)', 4, result.imports.flatMap((i) => [fileId, i.source, i.names.join(','), i.line]));
  const chunkRows: SqlValue[] = [];
  for (const [j, c] of result.chunks.entries()) {
    if (c.symbol !== undefined && c.symbolIndex === undefined) throw new Error(`${facts.path}: chunk ${c.symbol} does not say which symbol it is`);
    chunkRows.push(before.chunks + 1 + j, fileId, c.symbolIndex === undefined ? null : symbolIds[c.symbolIndex]!, c.lineStart, c.lineEnd);
  }
  insertRows(db, 'chunk_spans(id, file_id, symbol_id, line_start, line_end)', 5, chunkRows);
  const pathText = pathColumn(facts.path);
  const decoder = new TextDecoder();
  for (const [j, c] of result.chunks.entries()) {
    const body = c.utf8 ? decoder.decode(c.utf8.search) : c.searchText ?? searchableText(c.text);
    db.postings.add(db, before.chunks + 1 + j, nameColumn(c.symbol), pathText, body);
  }
  const span = (last: number, n: number): [number, number] => [last + 1, last + n];
  const rows: FileRows = {
    fileId, symbols: span(before.symbols, symbolIds.length), chunks: span(before.chunks, result.chunks.length),
    imports: span(before.imports, result.imports.length), annotations: span(before.annotations, annotations),
  };
  markRowIds(db, rows);
  return rows;
}

/**
 * Indexes `facts.path` as a copy of another file with the same bytes and language (its rows at `from`): the
 * extraction depends on the text alone, so its rows are copied under the new file, symbol ids shifted as one block,
 * instead of parsing the text again. Only the postings are made anew: their path column differs, and the
 * postings keep no text to copy, so chunk texts are rebuilt from the stored text (chunk-texts.ts).
 * Rows come out as writeFile would have written them. Call inside a transaction.
 */
export function copyFile(db: IndexDatabase, facts: FileFacts, from: FileRows, now: number, bodies?: Uint8Array[]): FileRows {
  removeFile(db, facts.path);
  const before = lastRowIds(db);
  const fileId = Number(db.getPrepared(
    `INSERT INTO files(path, language, size, mtime, hash, lines, has_errors, annotations, indexed_at, chunk_chars, text_id)
     SELECT ?, language, ?, ?, hash, lines, has_errors, annotations, ?, chunk_chars, text_id FROM files WHERE id = ? RETURNING id`,
    [facts.path, facts.size, facts.mtimeMs, now, from.fileId],
  )!.id);
  const source = [from.fileId, from.symbols[0], from.symbols[1]];
  // Old symbol id + shift = new one: the ids writeFile would have given, as the source's ids are one run too.
  const shift = before.symbols + 1 - from.symbols[0];
  // Each table's new rows are counted as they go in (the other tables take the next ids in turn), so the file's
  // ranges follow without querying the tables again.
  const inserted = (sql: string, params: SqlValue[]): number => {
    db.runPrepared(sql, params);
    return db.changes();
  };
  const symbols = inserted(
    `INSERT INTO symbol_rows(id, file_id, name_id, kind, container, line_start, line_end, name_line, name_col, name_end_col, signature)
     SELECT id + ?, ?, name_id, kind, container, line_start, line_end, name_line, name_col, name_end_col, signature
     FROM symbol_rows WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id`,
    [shift, fileId, ...source],
  );
  const annotations = inserted(
    `INSERT INTO annotations(file_id, symbol_id, key, value) SELECT ?, symbol_id + ?, key, value
     FROM annotations WHERE file_id = ? AND rowid BETWEEN ? AND ? ORDER BY rowid`,
    [fileId, shift, from.fileId, ...from.annotations],
  );
  db.runPrepared(
    `INSERT INTO ref_rows(file_id, seq, name_id, kind, line, col, end_col, caller_id)
     SELECT ?, seq, name_id, kind, line, col, end_col, caller_id + ? FROM ref_rows WHERE file_id = ? ORDER BY seq`,
    [fileId, shift, from.fileId],
  );
  copyRefCounts(db, fileId, from.fileId);
  const imports = inserted(
    'INSERT INTO imports(file_id, source, names, line) SELECT ?, source, names, line FROM imports WHERE file_id = ? AND rowid BETWEEN ? AND ? ORDER BY rowid',
    [fileId, from.fileId, ...from.imports],
  );
  const chunks = inserted(
    `INSERT INTO chunk_spans(file_id, symbol_id, line_start, line_end) SELECT ?, symbol_id + ?, line_start, line_end
     FROM chunk_spans WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id`,
    [fileId, shift, from.fileId, ...from.chunks],
  );
  const span = (last: number, n: number): [number, number] => [last + 1, last + n];
  const rows: FileRows = {
    fileId,
    // The last symbol is the source's last shifted (its ids are one run); rows auto-numbered take the next ids.
    symbols: [before.symbols + 1, symbols ? from.symbols[1] + shift : before.symbols],
    chunks: span(before.chunks, chunks), imports: span(before.imports, imports), annotations: span(before.annotations, annotations),
  };
  const pathText = pathColumn(facts.path);
  if (bodies && bodies.length === rows.chunks[1] - rows.chunks[0] + 1) {
    // The source's search bodies, kept by the indexer from its parse: rebuilding them here cost more than the
    // whole write of a parsed file (hono: 750 vs 450 ms for 390 files). Names come from the copied symbols.
    const names = new Map(db.rows('SELECT id, qualified_name FROM symbols WHERE file_id = ? AND id BETWEEN ? AND ?', [fileId, ...rows.symbols]).map(([id, name]) => [Number(id), String(name)]));
    let i = 0;
    const decoder = new TextDecoder();
    for (const [id, symbolId] of db.rows('SELECT id, symbol_id FROM chunk_spans WHERE file_id = ? AND id BETWEEN ? AND ? ORDER BY id', [fileId, ...rows.chunks])) {
      db.postings.add(db, Number(id), nameColumn(symbolId === null ? undefined : names.get(Number(symbolId))), pathText, decoder.decode(bodies[i++]!));
    }
    markRowIds(db, rows);
    return rows;
  }
  const textId = Number(db.getPrepared('SELECT text_id FROM files WHERE id = ?', [fileId])!.text_id);
  for (const chunk of spanTexts(db, fileId, textId, rows.symbols, rows.chunks)) {
    db.postings.add(db, chunk.id, nameColumn(chunk.symbol), pathText, searchableText(chunk.text));
  }
  markRowIds(db, rows);
  return rows;
}

/**
 * The interned id of a symbol's or reference's name (a name repeats across thousands of files), stored now if new.
 * In an index created by this process every name is in the map already, so a name it lacks is not looked up.
 */
function nameId(db: IndexDatabase, name: string): number {
  let id = db.refNameIds.get(name);
  if (id === undefined) {
    const known = db.refNamesKnown ? undefined : db.getPrepared('SELECT id FROM ref_names WHERE name = ?', [name]);
    id = Number((known ?? db.getPrepared('INSERT INTO ref_names(name) VALUES (?) RETURNING id', [name])!).id);
    db.refNameIds.set(name, id);
  }
  return id;
}

/** References with their names interned and callers as symbol rows; returns each one's name id. */
function writeReferences(db: IndexDatabase, fileId: number, references: ExtractedReference[], symbolIds: number[]): number[] {
  const rows: SqlValue[] = [];
  const names: number[] = [];
  for (const [seq, r] of references.entries()) {
    const name = nameId(db, r.name);
    names.push(name);
    rows.push(fileId, seq, name, KIND_CODE.get(r.kind) ?? KIND_CODE.get('other')!, r.line, r.column, r.endColumn,
      r.inSymbolIndex === undefined ? null : symbolIds[r.inSymbolIndex]!);
  }
  insertRows(db, 'ref_rows(file_id, seq, name_id, kind, line, col, end_col, caller_id)', 8, rows);
  return names;
}
