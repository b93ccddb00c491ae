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
import { TermBuffer } from './postings-codec';
import { compareTerms, eachToken } from './tokenize';

/** meta key: chunks ever added (removed ones included), tokens per column, and the last chunk id. */
export const TOTALS_KEY = 'postings_totals';
/** Segments of one level merged into one segment of the next. */
const FANOUT = 8;
/** A new segment's id is a multiple of this; a merge's output takes the id after the newest segment it merges. */
const SEG_STEP = 64;
/** Collected postings (bytes) past which they are written before the transaction ends: memory stays bounded. */
const FLUSH_BYTES = 16 << 20;

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

/** The postings of chunks added since the last flush, with their column lengths and the totals they add. */
export class PendingPostings {
  private terms = new Map<string, TermBuffer>();
  /** Column lengths by chunk id (a chunk removed before the flush is dropped from here: see forget). */
  private sizes = new Map<number, [number, number, number]>();
  private docs = 0;
  private tokens: [number, number, number] = [0, 0, 0];
  private lastId = 0;
  private bytes = 0;
  // One chunk's token counts: slot by term, then name/path/body counts per slot.
  private readonly slots = new Map<string, number>();
  private slotTerms: string[] = [];
  private slotCounts = new Uint32Array(3 * 256);

  /** Adds one chunk's columns. Ids must ascend past every chunk already written. */
  add(db: IndexDatabase, id: number, name: string, path: string, body: string): void {
    if (id <= this.lastId) throw new Error(`postings: chunk ${id} added after chunk ${this.lastId}`);
    this.lastId = id;
    const lengths: [number, number, number] = [this.count(name, 0), this.count(path, 1), this.count(body, 2)];
    for (let s = 0; s < this.slotTerms.length; s++) {
      const term = this.slotTerms[s]!;
      let buffer = this.terms.get(term);
      if (!buffer) {
        this.terms.set(term, (buffer = new TermBuffer()));
        this.bytes += term.length + 48;
      }
      const before = buffer.length;
      buffer.push(id, this.slotCounts[3 * s]!, this.slotCounts[3 * s + 1]!, this.slotCounts[3 * s + 2]!);
      this.bytes += buffer.length - before;
    }
    this.slots.clear();
    this.slotTerms.length = 0;
    this.sizes.set(id, lengths);
    this.docs++;
    for (let c = 0; c < 3; c++) this.tokens[c]! += lengths[c]!;
    if (this.bytes > FLUSH_BYTES) this.flush(db);
  }

  /** Drops a pending chunk's length (it was removed in the same batch); its postings stay, as dead ones do. */
  forget(id: number): void {
    this.sizes.delete(id);
  }

  /** Writes what was collected as one new segment, then merges full levels. */
  flush(db: IndexDatabase): void {
    if (this.docs === 0) return;
    const totals = readTotals(db);
    const first = this.firstId();
    if (first <= totals.maxId) throw new Error(`postings: chunk ${first} is not past the last chunk written (${totals.maxId})`);
    const last = db.getPrepared('SELECT coalesce(max(seg), 0) AS seg FROM postings_segs', [])!;
    const seg = (Math.floor(Number(last.seg) / SEG_STEP) + 1) * SEG_STEP;
    for (const term of [...this.terms.keys()].sort(compareTerms)) {
      db.runPrepared('INSERT INTO postings(seg, term, data) VALUES (?,?,?)', [seg, term, this.terms.get(term)!.run()]);
    }
    db.runPrepared('INSERT INTO postings_segs(seg, level) VALUES (?, 0)', [seg]);
    for (const [id, [name, path, body]] of this.sizes) db.runPrepared('INSERT INTO chunk_sizes(id, name, path, body) VALUES (?,?,?,?)', [id, name, path, body]);
    writeTotals(db, {
      docs: totals.docs + this.docs, tokens: [0, 1, 2].map((c) => totals.tokens[c]! + this.tokens[c]!) as [number, number, number], maxId: this.lastId,
    });
    this.discard();
    mergeLevels(db);
  }

  /** Forgets everything collected (the transaction it belonged to was rolled back). */
  discard(): void {
    this.terms = new Map();
    this.sizes = new Map();
    this.docs = 0;
    this.tokens = [0, 0, 0];
    this.lastId = 0;
    this.bytes = 0;
  }

  private firstId(): number {
    let first = this.lastId;
    for (const buffer of this.terms.values()) {
      // Each buffer's first entry is its first id (a delta from 0).
      let v = 0;
      for (let i = 0, scale = 1; i < buffer.length; i++, scale *= 128) {
        v += (buffer.bytes[i]! & 0x7f) * scale;
        if (buffer.bytes[i]! < 0x80) break;
      }
      if (v < first) first = v;
    }
    for (const id of this.sizes.keys()) if (id < first) first = id;
    return first;
  }

  /** Counts `text`'s tokens into the chunk's slots under column `col`; returns the column's length in tokens. */
  private count(text: string, col: number): number {
    let length = 0;
    eachToken(text, (token) => {
      let s = this.slots.get(token);
      if (s === undefined) {
        s = this.slotTerms.length;
        this.slots.set(token, s);
        this.slotTerms.push(token);
        if (3 * s + 3 > this.slotCounts.length) {
          const grown = new Uint32Array(this.slotCounts.length * 2);
          grown.set(this.slotCounts);
          this.slotCounts = grown;
        }
        this.slotCounts.fill(0, 3 * s, 3 * s + 3);
      }
      this.slotCounts[3 * s + col]!++;
      length++;
    });
    return length;
  }
}

/** Merges the segments of any level that holds FANOUT of them into one of the next level, until none does. */
function mergeLevels(db: IndexDatabase): void {
  for (;;) {
    const full = db.getPrepared(`SELECT level FROM postings_segs GROUP BY level HAVING count(*) >= ${FANOUT} ORDER BY level LIMIT 1`, []);
    if (!full) return;
    const level = Number(full.level);
    mergeSegments(db, db.rows('SELECT seg FROM postings_segs WHERE level = ? ORDER BY seg', [level]).map((r) => Number(r[0])), level + 1);
  }
}

/** Merges every segment into one (after a full index, and before a packed image is written). */
export function packSegments(db: IndexDatabase): void {
  db.postings.flush(db);
  const segs = db.rows('SELECT seg, level FROM postings_segs ORDER BY seg');
  if (segs.length > 1) mergeSegments(db, segs.map((r) => Number(r[0])), Math.max(...segs.map((r) => Number(r[1]))));
}

/**
 * Merges `segs` (consecutive in segment order, oldest first) into one segment of `level` whose id follows the newest
 * of them: a term's blobs are appended in segment order, which is id order. Each segment is read in term order
 * through its own cursor and the output written in term order, so nothing is held but one term's blobs.
 */
function mergeSegments(db: IndexDatabase, segs: number[], level: number): void {
  const target = segs[segs.length - 1]! + 1;
  const cursors = segs.map((seg) => db.cursor('SELECT term, data FROM postings WHERE seg = ? ORDER BY term', [seg]));
  try {
    const heads: Array<SqlValue[] | undefined> = cursors.map((c) => c.next());
    for (;;) {
      let term: string | undefined;
      for (const head of heads) if (head && (term === undefined || compareTerms(String(head[0]), term) < 0)) term = String(head[0]);
      if (term === undefined) break;
      const parts: Uint8Array[] = [];
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head && String(head[0]) === term) {
          parts.push(head[1] as Uint8Array);
          heads[i] = cursors[i]!.next();
        }
      }
      db.runPrepared('INSERT INTO postings(seg, term, data) VALUES (?,?,?)', [target, term, concat(parts)]);
    }
  } finally {
    for (const c of cursors) c.close();
  }
  for (const seg of segs) {
    db.runPrepared('DELETE FROM postings WHERE seg = ?', [seg]);
    db.runPrepared('DELETE FROM postings_segs WHERE seg = ?', [seg]);
  }
  db.runPrepared('INSERT INTO postings_segs(seg, level) VALUES (?, ?)', [target, level]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
