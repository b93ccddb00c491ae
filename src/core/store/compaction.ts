/**
 * Compaction before a whole image is exported. Removing a file leaves its chunks' chunks_fts rows behind (FTS4
 * without content cannot delete them): they match no chunk, but BM25's document count, average lengths and document
 * frequencies still count them. Past a share of dead rows the table is rebuilt from the live chunks, with search
 * text made from the rebuilt chunk text by the function the parser host uses. Packing merges the full-text segments
 * into one; the image writer then writes a packed copy (IndexDatabase.packInto): b-trees filled in random order
 * repacked and freed pages dropped, which together take about a tenth off the image.
 */
import { searchableText } from '../parse/identifiers';
import { chunkTexts } from './chunk-texts';
import type { IndexDatabase } from './database';
import { ftsNameText, ftsPathText } from './file-writes';
import { FTS_DEAD_KEY, FTS_TABLE_SQL } from './schema';

/** Dead rows, as a share of live ones, past which compactIndex rebuilds chunks_fts. */
export const DEAD_SHARE_LIMIT = 0.2;
const BATCH = 500;

export interface CompactionOptions {
  /** Rebuild chunks_fts whatever the share of dead rows. */
  rebuild?: boolean;
  /** Merge the full-text segments (default true), before a packed copy is written. */
  pack?: boolean;
}

export interface CompactionReport {
  live: number;
  /** Dead chunks_fts rows before compaction. */
  dead: number;
  rebuilt: boolean;
  packed: boolean;
}

export function deadFtsRows(db: IndexDatabase): number {
  return Number(db.get('SELECT value FROM meta WHERE key = ?', [FTS_DEAD_KEY])?.value ?? 0);
}

/** Call outside a transaction. */
export function compactIndex(db: IndexDatabase, options: CompactionOptions = {}): CompactionReport {
  const live = Number(db.get('SELECT count(*) AS n FROM chunk_spans')?.n ?? 0);
  const dead = deadFtsRows(db);
  const rebuild = options.rebuild === true || dead > DEAD_SHARE_LIMIT * live;
  const pack = options.pack ?? true;
  if (rebuild) db.transaction(() => rebuildFts(db));
  if (pack) db.run("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')");
  return { live, dead, rebuilt: rebuild, packed: pack };
}

function rebuildFts(db: IndexDatabase): void {
  db.run('DROP TABLE chunks_fts');
  db.run(FTS_TABLE_SQL);
  const pathTexts = new Map<number, string>();
  let after = 0;
  for (;;) {
    const rows = db.all(
      `SELECT c.id, c.file_id, c.symbol, f.path FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id > ? ORDER BY c.id LIMIT ${BATCH}`,
      [after],
    );
    if (!rows.length) break;
    const texts = chunkTexts(db, rows.map((r) => Number(r.id)));
    for (const r of rows) {
      const id = Number(r.id);
      const fileId = Number(r.file_id);
      let pathText = pathTexts.get(fileId);
      if (pathText === undefined) pathTexts.set(fileId, (pathText = ftsPathText(String(r.path))));
      db.runPrepared('INSERT INTO chunks_fts(docid, name, path, body) VALUES (?,?,?,?)',
        [id, ftsNameText(r.symbol === null ? undefined : String(r.symbol)), pathText, searchableText(texts.get(id) ?? '')]);
    }
    after = Number(rows[rows.length - 1]!.id);
  }
  db.run('UPDATE meta SET value = ? WHERE key = ?', ['0', FTS_DEAD_KEY]);
}
