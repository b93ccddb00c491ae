/**
 * Writing the full-text postings (read by postings.ts). A write batch's postings are collected in memory, per term,
 * and written when its transaction commits (IndexDatabase.transaction) or when they grow past FLUSH_BYTES: one
 * segment, a row per term in term order, appended at the end of the table (its key is (seg, term)). Segments are
 * merged like a log-structured tree: FANOUT segments of one level become one of the next, so a term is read from a
 * few segments and each posting is rewritten a few times; a full index ends with one segment (packSegments).
 *
 * Chunk ids only ever grow (chunk_spans is AUTOINCREMENT, and a rebuild starts from empty), so a term's runs in
 * segment order are in id order, and merging is appending. A removed chunk's postings stay (as FTS4's did): its id is
 * listed in dead_chunks with its column texts, which a phrase query checks (postings.ts), and it still counts in the
 * totals and document frequencies until compaction rebuilds everything (compaction.ts).
 */
import type { SqlValue } from 'sql.js';
import { chunkTexts } from './chunk-texts';
import { nameColumn, pathColumn } from './column-texts';
import type { IndexDatabase } from './database';
import { searchableText } from '../parse/identifiers';
import { type CollectingTerm, TermTable } from './term-table';
import { concatBytes } from '../bytes';
import { byCodePoint } from '../strings';
import { foldToken, scanTokens } from './tokenize';

/** meta key: chunks ever added (removed ones included), tokens per column, and the last chunk id. */
export const TOTALS_KEY = 'postings_totals';
/** Segments of one level merged into one segment of the next. */
const FANOUT = 8;
/** A new segment's id is a multiple of this; a merge's output takes the id after the newest segment it merges. */
const SEG_STEP = 64;
/** Collected postings (bytes, estimated) past which they are written before the transaction ends: memory stays bounded. */
const FLUSH_BYTES = 8 << 20;
/** What a collected term costs besides its characters and postings (its object, buffer and map entry), estimated. */
const TERM_OVERHEAD = 160;

export interface PostingTotals {
  docs: number;
  /** Tokens per column: name, path, body. */
  tokens: [number, number, number];
  maxId: number;
}

export function readTotals(db: IndexDatabase): PostingTotals {
  const raw = db.getPrepared('SELECT value FROM meta WHERE key = ?', [TOTALS_KEY]);
  const [docs = 0, name = 0, path = 0, body = 0, maxId = 0] = raw ? String(raw.value).split(' ').map(Number) : [];
  return { docs, tokens: [name, path, body], maxId };
}

function writeTotals(db: IndexDatabase, t: PostingTotals): void {
  db.runPrepared('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)', [TOTALS_KEY, [t.docs, ...t.tokens, t.maxId].join(' ')]);
}

/** Rows per INSERT statement: one statement per row spent as long crossing into SQLite as inserting. */
const ROWS_PER_INSERT = 32;
const insertRows = (rows: number, schema = 'main') => `INSERT INTO ${schema}.postings(seg, term, data) VALUES ${Array(rows).fill('(?,?,?)').join(',')}`;

/**
 * The postings of chunks added since the last flush, with their column lengths and the totals they add. A write
 * transaction's are flushed when it commits (IndexDatabase.transaction). A full run's bulk load (`deferred`) keeps
 * collecting across its transactions and flushes by size, so its segments are few and large, and merges them once
 * at the end (packPostingsInto): merging as it went was half the postings' write time at 10k files.
 */
export class PendingPostings {
  /** Flush by size only, and merge only when packed (a bulk load: IndexDatabase.create's `bulk`). */
  deferred = false;
  private terms = new TermTable();
  /** Column lengths by chunk id (a chunk removed before the flush is dropped from here: see forget). */
  private sizes = new Map<number, [number, number, number]>();
  private docs = 0;
  private tokens: [number, number, number] = [0, 0, 0];
  private lastId = 0;
  private bytes = 0;
  /** A term holds a surrogate pair: the flush sorts by code point rather than by UTF-16 unit. */
  private astral = false;
  /** Postings of committed transactions were dropped by a later rollback (deferred mode): flushing now would lie. */
  private lost = false;
  /** Postings kept past a commit in deferred mode. */
  private committed = false;
  private readonly touched: CollectingTerm[] = [];

  /** Adds one chunk's columns. Ids must ascend past every chunk already written. */
  add(db: IndexDatabase, id: number, name: string, path: string, body: string): void {
    if (id <= this.lastId) throw new Error(`postings: chunk ${id} added after chunk ${this.lastId}`);
    this.lastId = id;
    const touched = this.touched;
    const fresh = (term: CollectingTerm): void => {
      this.bytes += 2 * term.text.length + TERM_OVERHEAD;
      if (!this.astral && /[\ud800-\udfff]/.test(term.text)) this.astral = true;
    };
    const lengths: [number, number, number] = [0, 0, 0];
    const columns = [name, path, body];
    for (let col = 0; col < 3; col++) {
      const text = columns[col]!;
      scanTokens(text, (start, end, upper) => {
        let term: CollectingTerm;
        if (upper) {
          const folded = foldToken(text.slice(start, end));
          term = this.terms.get(folded, 0, folded.length, fresh);
        } else {
          term = this.terms.get(text, start, end, fresh);
        }
        if (term.chunk !== id) {
          term.chunk = id;
          term.name = term.path = term.body = 0;
          touched.push(term);
        }
        if (col === 0) term.name++;
        else if (col === 1) term.path++;
        else term.body++;
        lengths[col]!++;
      });
    }
    for (const term of touched) {
      const before = term.length;
      term.push(id, term.name, term.path, term.body);
      this.bytes += term.length - before;
    }
    touched.length = 0;
    this.sizes.set(id, lengths);
    this.docs++;
    for (let col = 0; col < 3; col++) this.tokens[col]! += lengths[col]!;
    if (this.bytes > FLUSH_BYTES) this.flush(db);
  }

  /** Drops a pending chunk's length (it was removed in the same batch); its postings stay, as dead ones do. */
  forget(id: number): void {
    this.sizes.delete(id);
  }

  /** At a transaction's commit: flushes, unless deferred. */
  commit(db: IndexDatabase): void {
    if (this.deferred) this.committed = this.docs > 0;
    else this.flush(db);
  }

  /** At a transaction's rollback: what it added is dropped (in deferred mode, with what earlier commits kept). */
  rollback(): void {
    if (this.committed) this.lost = true;
    this.discard();
  }

  /** Writes what was collected as one new segment, then (unless deferred) merges full levels. */
  flush(db: IndexDatabase): void {
    if (this.lost) throw new Error('postings: a rollback dropped postings of committed writes; the index must be rebuilt');
    if (this.docs === 0) return;
    const totals = readTotals(db);
    let first = this.lastId;
    for (const term of this.terms.list) if (term.first < first) first = term.first;
    if (first <= totals.maxId) throw new Error(`postings: chunk ${first} is not past the last chunk written (${totals.maxId})`);
    const last = db.getPrepared('SELECT coalesce(max(seg), 0) AS seg FROM postings_segs', [])!;
    const seg = (Math.floor(Number(last.seg) / SEG_STEP) + 1) * SEG_STEP;
    const order = [...this.terms.list];
    if (this.astral) order.sort((a, b) => byCodePoint(a.text, b.text));
    // UTF-16 order is code point order within the BMP.
    else order.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    // Under one savepoint: it nests in a write transaction, and outside one (a full run's last flush, made by the
    // readers that flush first) it makes the segment one commit. Each statement committed on its own wrote its
    // dirty pages again: 6,686 page writes for a ~1,100-page index on hono, ~0.1 s of this thread's CPU.
    db.run('SAVEPOINT postings_flush');
    try {
      let params: SqlValue[] = [];
      for (const term of order) {
        params.push(seg, term.text, term.run());
        if (params.length === 3 * ROWS_PER_INSERT) {
          db.runPrepared(insertRows(ROWS_PER_INSERT), params);
          params = [];
        }
      }
      if (params.length) db.runPrepared(insertRows(params.length / 3), params);
      db.runPrepared('INSERT INTO postings_segs(seg, level) VALUES (?, 0)', [seg]);
      for (const [id, [name, path, body]] of this.sizes) db.runPrepared('INSERT INTO chunk_sizes(id, name, path, body) VALUES (?,?,?,?)', [id, name, path, body]);
      writeTotals(db, {
        docs: totals.docs + this.docs, tokens: [0, 1, 2].map((c) => totals.tokens[c]! + this.tokens[c]!) as [number, number, number], maxId: this.lastId,
      });
      db.run('RELEASE postings_flush');
    } catch (e) {
      // Nothing of the segment stays; what was collected is still here.
      try { db.run('ROLLBACK TO postings_flush'); db.run('RELEASE postings_flush'); } catch { /* no savepoint left */ }
      throw e;
    }
    this.discard();
    if (!this.deferred) mergeLevels(db);
  }

  /** Forgets everything collected. */
  discard(): void {
    this.terms = new TermTable();
    this.sizes = new Map();
    this.docs = 0;
    this.tokens = [0, 0, 0];
    this.lastId = 0;
    this.bytes = 0;
    this.astral = false;
    this.committed = false;
  }
}

/** Merges the segments of any level that holds FANOUT of them into one of the next level, until none does. */
function mergeLevels(db: IndexDatabase): void {
  for (;;) {
    const full = db.getPrepared(`SELECT level FROM postings_segs GROUP BY level HAVING count(*) >= ${FANOUT} ORDER BY level LIMIT 1`, []);
    if (!full) return;
    const level = Number(full.level);
    mergeInPlace(db, db.rows('SELECT seg FROM postings_segs WHERE level = ? ORDER BY seg', [level]).map((r) => Number(r[0])), level + 1);
  }
}

/**
 * The level of a packed segment: above any a merge reaches, so the commits after a full run merge among themselves
 * and never rewrite the whole index's postings into their small segments.
 */
const PACKED_LEVEL = 1000;

/** The postings' tables, which a packed copy fills with packPostingsInto rather than copying them. */
export const POSTINGS_TABLES: readonly string[] = ['postings', 'postings_segs'];

/** Merges every segment into one (after a full index, and before a whole image is written). */
export function packSegments(db: IndexDatabase): void {
  db.postings.flush(db);
  const segs = segments(db);
  if (segs.length > 1) mergeInPlace(db, segs, PACKED_LEVEL);
  else if (segs.length === 1) db.runPrepared('UPDATE postings_segs SET level = ? WHERE seg = ?', [PACKED_LEVEL, segs[0]!]);
}

/**
 * Fills the postings' tables of the attached schema `into` (a packed copy, IndexDatabase.packInto) with what
 * packSegments would leave here, merged as they are written: a full run's segments are no longer merged in place
 * first, which wrote every posting once more and then deleted the segments (at 10k files the persisting step went from
 * ~4.2 to ~3.6 CPU-s). This database keeps its segments; it goes on from the copy.
 */
export function packPostingsInto(db: IndexDatabase, into: string): void {
  db.postings.flush(db);
  const segs = segments(db);
  if (segs.length === 1) db.run(`INSERT INTO ${into}.postings SELECT * FROM main.postings`);
  const target = segs.length > 1 ? mergeSegments(db, segs, into) : segs[0];
  if (target !== undefined) db.runPrepared(`INSERT INTO ${into}.postings_segs(seg, level) VALUES (?, ?)`, [target, PACKED_LEVEL]);
}

/** Replaces `segs` by their merge, one segment of `level`. */
function mergeInPlace(db: IndexDatabase, segs: number[], level: number): void {
  const target = mergeSegments(db, segs, 'main');
  for (const seg of segs) {
    db.runPrepared('DELETE FROM postings WHERE seg = ?', [seg]);
    db.runPrepared('DELETE FROM postings_segs WHERE seg = ?', [seg]);
  }
  db.runPrepared('INSERT INTO postings_segs(seg, level) VALUES (?, ?)', [target, level]);
}

function segments(db: IndexDatabase): number[] {
  return db.rows('SELECT seg FROM postings_segs ORDER BY seg').map((r) => Number(r[0]));
}

/**
 * Merges the postings of `segs` (consecutive in segment order, oldest first) into schema `into`'s postings as one
 * segment whose id follows the newest of them, and returns that id: a term's blobs are appended in segment order,
 * which is id order. Each segment is read in term order through its own cursor and the output written in term order,
 * so nothing is held but one term's blobs and one statement's rows. The caller records the segment.
 */
function mergeSegments(db: IndexDatabase, segs: number[], into: string): number {
  const target = segs[segs.length - 1]! + 1;
  const full = insertRows(ROWS_PER_INSERT, into);
  const cursors = segs.map((seg) => db.cursor('SELECT term, data FROM main.postings WHERE seg = ? ORDER BY term', [seg]));
  try {
    const heads: Array<SqlValue[] | undefined> = cursors.map((c) => c.next());
    let params: SqlValue[] = [];
    for (;;) {
      let term: string | undefined;
      for (const head of heads) if (head && (term === undefined || byCodePoint(String(head[0]), term) < 0)) term = String(head[0]);
      if (term === undefined) break;
      const parts: Uint8Array[] = [];
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head && String(head[0]) === term) {
          parts.push(head[1] as Uint8Array);
          heads[i] = cursors[i]!.next();
        }
      }
      params.push(target, term, concatBytes(parts));
      if (params.length === 3 * ROWS_PER_INSERT) {
        db.runPrepared(full, params);
        params = [];
      }
    }
    if (params.length) db.runPrepared(insertRows(params.length / 3, into), params);
  } finally {
    for (const c of cursors) c.close();
  }
  return target;
}

/**
 * Marks the chunks of file `fileId` (about to be deleted) dead: their postings stay until compaction, so their
 * column texts are kept for a phrase query to check (postings.ts), and their lengths are dropped.
 */
export function markFileDead(db: IndexDatabase, fileId: number, path: string): number {
  const rows = db.rows('SELECT id, symbol FROM chunks WHERE file_id = ? ORDER BY id', [fileId]);
  if (!rows.length) return 0;
  const texts = chunkTexts(db, rows.map((r) => Number(r[0])));
  const pathText = pathColumn(path);
  for (const [rawId, symbol] of rows) {
    const id = Number(rawId);
    db.runPrepared('INSERT INTO dead_chunks(id, name, path, body) VALUES (?,?,?,?)',
      [id, nameColumn(symbol === null ? undefined : String(symbol)), pathText, searchableText(texts.get(id) ?? '')]);
    db.runPrepared('DELETE FROM chunk_sizes WHERE id = ?', [id]);
    db.postings.forget(id);
  }
  return rows.length;
}

/** Empties the postings, lengths, dead chunks and totals (compaction then adds every live chunk again). */
export function clearPostings(db: IndexDatabase): void {
  db.postings.discard();
  for (const table of ['postings', 'postings_segs', 'chunk_sizes', 'dead_chunks']) db.run(`DELETE FROM ${table}`);
  db.run('DELETE FROM meta WHERE key = ?', [TOTALS_KEY]);
}
