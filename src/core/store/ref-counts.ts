/**
 * ref_counts, the per-file reference counts the repo map's graph is built from, kept in step with ref_rows: each
 * write of a file's references adds its counts (grouped in SQL from the rows just written), a copy copies them,
 * removeFile deletes them with the file's other rows. Reading every reference row made the map's first load
 * 36-48 s at 41k files.
 */
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from './database';
import { insertRows } from './insert-rows';

/**
 * Counts the references just written for `fileId`, from their name ids (`names`, one per ref_rows row): grouping
 * the rows again in SQL cost a third as much as writing them. Call inside the write's transaction.
 */
export function writeRefCounts(db: IndexDatabase, fileId: number, names: readonly number[]): void {
  const counts = new Map<number, number>();
  for (const id of names) counts.set(id, (counts.get(id) ?? 0) + 1);
  const rows: SqlValue[] = [];
  for (const id of [...counts.keys()].sort((a, b) => a - b)) rows.push(fileId, id, counts.get(id)!);
  insertRows(db, 'ref_counts(file_id, name_id, n)', 3, rows);
}

/** Gives `fileId` the counts of `fromId` (a file with the same content, see copyFile). */
export function copyRefCounts(db: IndexDatabase, fileId: number, fromId: number): void {
  db.runPrepared('INSERT INTO ref_counts(file_id, name_id, n) SELECT ?, name_id, n FROM ref_counts WHERE file_id = ?', [fileId, fromId]);
}
