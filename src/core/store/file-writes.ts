/** Writing one file's extraction into the index, and removing it again. */
import { searchableText } from '../parse/identifiers';
import type { ParseResult } from '../parse/types';
import type { IndexDatabase } from './database';

export interface FileFacts {
  path: string;
  language: string;
  size: number;
  mtimeMs: number;
  hash: string;
  lines: number;
}

export function removeFile(db: IndexDatabase, path: string): void {
  const row = db.getPrepared('SELECT id FROM files WHERE path = ?', [path]);
  if (!row) return;
  const id = Number(row.id);
  db.run('DELETE FROM chunks_fts WHERE docid IN (SELECT id FROM chunks WHERE file_id = ?)', [id]);
  for (const table of ['chunks', 'symbols', 'refs', 'imports', 'annotations']) {
    db.run(`DELETE FROM ${table} WHERE file_id = ?`, [id]);
  }
  db.run('DELETE FROM files WHERE id = ?', [id]);
}

/** Replaces everything the index holds for `facts.path` with `result`. Call inside a transaction. */
export function writeFile(db: IndexDatabase, facts: FileFacts, result: ParseResult, now: number): void {
  removeFile(db, facts.path);
  db.runPrepared(
    'INSERT INTO files(path, language, size, mtime, hash, lines, has_errors, annotations, indexed_at) VALUES (?,?,?,?,?,?,?,?,?)',
    [facts.path, facts.language, facts.size, facts.mtimeMs, facts.hash, facts.lines, result.hasSyntaxErrors ? 1 : 0,
      Object.keys(result.fileAnnotations).length ? JSON.stringify(result.fileAnnotations) : null, now],
  );
  const fileId = db.lastInsertId();

  const symbolIds = new Map<string, number>();
  for (const s of result.symbols) {
    db.runPrepared(
      `INSERT INTO symbols(file_id, name, qualified_name, kind, container, line_start, line_end, name_line, name_col,
        name_end_col, signature, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
      [fileId, s.name, s.qualifiedName, s.kind, s.container ?? null, s.lineStart, s.lineEnd, s.nameLine, s.nameColumn,
        s.nameEndColumn, s.signature, s.doc ?? null],
    );
    const id = db.lastInsertId();
    symbolIds.set(s.qualifiedName, id);
    const own = Object.entries(s.annotations).filter(([k, v]) => result.fileAnnotations[k] !== v);
    if (own.length) db.runMany('INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,?,?,?)', own.map(([k, v]) => [fileId, id, k, v]));
  }
  db.runMany(
    'INSERT INTO annotations(file_id, symbol_id, key, value) VALUES (?,NULL,?,?)',
    Object.entries(result.fileAnnotations).map(([k, v]) => [fileId, k, v]),
  );
  for (const r of result.references) {
    db.runPrepared('INSERT INTO refs(file_id, name, kind, line, col, end_col, in_symbol) VALUES (?,?,?,?,?,?,?)',
      [fileId, r.name, r.kind, r.line, r.column, r.endColumn, r.inSymbol ?? null]);
  }
  db.runMany(
    'INSERT INTO imports(file_id, source, names, line) VALUES (?,?,?,?)',
    result.imports.map((i) => [fileId, i.source, i.names.join(','), i.line]),
  );
  const pathText = searchableText(facts.path.replace(/[/.\\-]/g, ' '));
  for (const c of result.chunks) {
    // Bytes from the parser host are bound as blobs and cast back to TEXT by SQLite: no re-encoding here.
    db.runPrepared(
      'INSERT INTO chunks(file_id, symbol, kind, line_start, line_end, container, signature, text) VALUES (?,?,?,?,?,?,?,CAST(? AS TEXT))',
      [fileId, c.symbol ?? null, c.kind, c.lineStart, c.lineEnd, c.container ?? null, c.signature ?? null, c.utf8?.text ?? c.text],
    );
    const chunkId = db.lastInsertId();
    const name = c.symbol ? searchableText(c.symbol.replace(/\./g, ' ')) : '';
    db.runPrepared('INSERT INTO chunks_fts(docid, name, path, body) VALUES (?,?,?,CAST(? AS TEXT))',
      [chunkId, name, pathText, c.utf8?.search ?? c.searchText ?? searchableText(c.text)]);
  }
}
