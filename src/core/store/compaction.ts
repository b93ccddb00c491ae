/**
 * Compaction before a whole image is exported. Removing a file leaves its chunks' postings behind (listed as dead
 * chunks, postings-writer.ts): they match no live chunk, but BM25's document count, average lengths and document
 * frequencies still count them, as FTS4 did. Past a share of dead chunks the postings are rebuilt from the live
 * chunks, with search text made from the rebuilt chunk text by the function the parser host uses. Packing merges the
 * postings' segments into one in place, for an image written page by page (writeImage); a full run's packed copy
 * (IndexDatabase.packInto) merges them as it copies instead: b-trees filled in random order repacked and freed pages
 * dropped, which together take about a tenth off the image.
 */
import { searchableText } from '../parse/identifiers';
import { chunkTexts } from './chunk-texts';
import { nameColumn, pathColumn } from './column-texts';
import type { IndexDatabase } from './database';
import { deadChunkCount } from './postings';
import { clearPostings, packSegments } from './postings-writer';

/** Dead chunks, as a share of live ones, past which compactIndex rebuilds the postings. */
export const DEAD_SHARE_LIMIT = 0.2;
const BATCH = 500;

export interface CompactionOptions {
  /** Rebuild the postings whatever the share of dead chunks. */
  rebuild?: boolean;
  /** Merge the postings' segments into one in place (default true); packInto does it itself. */
  pack?: boolean;
}

export interface CompactionReport {
  live: number;
  /** Dead chunks (postings held for removed chunks) before compaction. */
  dead: number;
  rebuilt: boolean;
  packed: boolean;
}

/** Call outside a transaction. */
export function compactIndex(db: IndexDatabase, options: CompactionOptions = {}): CompactionReport {
  const live = Number(db.get('SELECT count(*) AS n FROM chunk_spans')?.n ?? 0);
  const dead = deadChunkCount(db);
  const rebuild = options.rebuild === true || dead > DEAD_SHARE_LIMIT * live;
  const pack = options.pack ?? true;
  if (rebuild) db.transaction(() => rebuildPostings(db));
  if (pack) db.transaction(() => packSegments(db));
  return { live, dead, rebuilt: rebuild, packed: pack };
}

function rebuildPostings(db: IndexDatabase): void {
  clearPostings(db);
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
      if (pathText === undefined) pathTexts.set(fileId, (pathText = pathColumn(String(r.path))));
      db.postings.add(db, id, nameColumn(r.symbol === null ? undefined : String(r.symbol)), pathText, searchableText(texts.get(id) ?? ''));
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}
