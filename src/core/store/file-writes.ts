/** Writing one file's extraction into the index, and removing it again. */
import { createHash } from 'node:crypto';
import { searchableText } from '../parse/identifiers';
import type { ExtractedReference, ParseResult } from '../parse/types';
import type { IndexDatabase } from './database';
import { FTS_DEAD_KEY, REFERENCE_KIND_CODES } from './schema';

export interface FileFacts {
  path: string;
  language: string;
  size: number;
  mtimeMs: number;
  hash: string;
  lines: number;
}

const KIND_CODE = new Map(REFERENCE_KIND_CODES.map((k, i) => [k, i]));

/** The name and path columns of a chunk's chunks_fts row (the body is its search text). */
export function ftsNameText(symbol: string | undefined): string {
  return symbol ? searchableText(symbol.replace(/\./g, ' ')) : '';
}

export function ftsPathText(path: string): string {
  return searchableText(path.replace(/[/.\\-]/g, ' '));
}

export function removeFile(db: IndexDatabase, path: string): void {
  const row = db.getPrepared('SELECT id, text_id FROM files WHERE path = ?', [path]);
  if (!row) return;
  const id = Number(row.id);
  const textId = Number(row.text_id);
  // Contentless FTS4 cannot delete: the chunks' rows stay behind as dead docids (queries join chunk ids, so they
  // match nothing) until compaction rebuilds the table.
  const dead = Number(db.getPrepared('SELECT count(*) AS n FROM chunk_spans WHERE file_id = ?', [id])!.n);
  if (dead) db.runPrepared('UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = ?', [dead, FTS_DEAD_KEY]);
  for (const table of ['chunk_spans', 'symbols', 'ref_rows', 'imports', 'annotations']) {
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
  db.runPrepared('INSERT INTO file_texts(digest, content) VALUES (?,?)', [digest, content]);
  return db.lastInsertId();
}

/** Replaces everything the index holds for `facts.path` with `result`. Call inside a transaction. */
export function writeFile(db: IndexDatabase, facts: FileFacts, result: ParseResult, now: number): void {
  if (!result.content) throw new Error(`${facts.path}: the parse result has no packed content (made by the parser host)`);
  removeFile(db, facts.path);
  const text = textId(db, result.content);
  db.runPrepared(
    'INSERT INTO files(path, language, size, mtime, hash, lines, has_errors, annotations, indexed_at, chunk_chars, text_id) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
    [facts.path, facts.language, facts.size, facts.mtimeMs, facts.hash, facts.lines, result.hasSyntaxErrors ? 1 : 0,
      Object.keys(result.fileAnnotations).length ? JSON.stringify(result.fileAnnotations) : null, now, result.chunkChars ?? 0, text],
  );
  const fileId = db.lastInsertId();

  const symbolIds: number[] = [];
  for (const s of result.symbols) {
    db.runPrepared(
      `INSERT INTO symbols(file_id, name, qualified_name, kind, container, line_start, line_end, name_line, name_col,
        name_end_col, signature, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
      [fileId, s.name, s.qualifiedName, s.kind, s.container ?? null, s.lineStart, s.lineEnd, s.nameLine, s.nameColumn,
        s.nameEndColumn, s.signature, s.doc ?? null],
    );
    const id = db.lastInsertId();
    symbolIds.push(id);
    const own = Object.entries(s.annotations).filter(([k, v]) => result.fileAnnotations[k] !== v);
    if (own.length) db.runMany('INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,?,?,?)', own.map(([k, v]) => [fileId, id, k, v]));
  }
  db.runMany(
    'INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,NULL,?,?)',
    Object.entries(result.fileAnnotations).map(([k, v]) => [fileId, k, v]),
  );
  writeReferences(db, fileId, result.references, symbolIds);
  db.runMany(
    'INSERT INTO imports(file_id, source, names, line) VALUES (?,?,?,?)',
    result.imports.map((i) => [fileId, i.source, i.names.join(','), i.line]),
  );
  const pathText = ftsPathText(facts.path);
  for (const c of result.chunks) {
    if (c.symbol !== undefined && c.symbolIndex === undefined) throw new Error(`${facts.path}: chunk ${c.symbol} does not say which symbol it is`);
    db.runPrepared('INSERT INTO chunk_spans(file_id, symbol_id, line_start, line_end) VALUES (?,?,?,?)',
      [fileId, c.symbolIndex === undefined ? null : symbolIds[c.symbolIndex]!, c.lineStart, c.lineEnd]);
    // Bytes from the parser host are bound as blobs and cast back to TEXT by SQLite: no re-encoding here.
    db.runPrepared('INSERT INTO chunks_fts(docid, name, path, body) VALUES (?,?,?,CAST(? AS TEXT))',
      [db.lastInsertId(), ftsNameText(c.symbol), pathText, c.utf8?.search ?? c.searchText ?? searchableText(c.text)]);
  }
}

/** References with their names interned (a name repeats across thousands of files) and callers as symbol rows. */
function writeReferences(db: IndexDatabase, fileId: number, references: ExtractedReference[], symbolIds: number[]): void {
  const nameIds = new Map<string, number>();
  for (const [seq, r] of references.entries()) {
    let nameId = nameIds.get(r.name);
    if (nameId === undefined) {
      const known = db.getPrepared('SELECT id FROM ref_names WHERE name = ?', [r.name]);
      if (known) nameId = Number(known.id);
      else {
        db.runPrepared('INSERT INTO ref_names(name) VALUES (?)', [r.name]);
        nameId = db.lastInsertId();
      }
      nameIds.set(r.name, nameId);
    }
    db.runPrepared('INSERT INTO ref_rows(file_id, seq, name_id, kind, line, col, end_col, caller_id) VALUES (?,?,?,?,?,?,?,?)',
      [fileId, seq, nameId, KIND_CODE.get(r.kind) ?? KIND_CODE.get('other')!, r.line, r.column, r.endColumn,
        r.inSymbolIndex === undefined ? null : symbolIds[r.inSymbolIndex]!]);
  }
}
