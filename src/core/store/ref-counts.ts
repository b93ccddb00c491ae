/**
 * ref_counts, the per-file reference counts the repo map's graph is built from, kept in step with ref_rows: each
 * write of a file's references adds its counts (grouped in SQL from the rows just written), a copy copies them,
 * removeFile deletes them with the file's other rows. Reading every reference row made the map's first load
 * 36-48 s at 41k files.
 */
import type { IndexDatabase } from './database';

/** Counts the references just written for `fileId`. Call after its ref_rows are in, inside the write's transaction. */
export function writeRefCounts(db: IndexDatabase, fileId: number): void {
  db.runPrepared('INSERT INTO ref_counts(file_id, name_id, n) SELECT file_id, name_id, count(*) FROM ref_rows WHERE file_id = ? GROUP BY name_id', [fileId]);
}

/** Gives `fileId` the counts of `fromId` (a file with the same content, see copyFile). */
export function copyRefCounts(db: IndexDatabase, fileId: number, fromId: number): void {
  db.runPrepared('INSERT INTO ref_counts(file_id, name_id, n) SELECT ?, name_id, n FROM ref_counts WHERE file_id = ?', [fileId, fromId]);
}
