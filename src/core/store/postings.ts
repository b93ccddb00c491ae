/**
 * The full-text index as readers see it: per term, the chunks holding it with their hits per column (name, path,
 * body), what FTS4's matchinfo 'y' gave, read as a few blobs per term and decoded here (postings-writer.ts writes
 * them). Tokens are FTS4's `simple` ones (tokenize.ts) and the counts FTS4's: a removed chunk's postings stay
 * (dead, listed in dead_chunks) and count in totals and document frequencies until compaction, as they did in FTS4.
 *
 * A query text of several tokens (`foo_bar`) is a phrase, as in FTS4: its candidates are the chunks holding every
 * token in a column, checked on the column's text (rebuilt for live chunks, kept for dead ones) for the tokens in a
 * row; past PHRASE_CHECK_MAX candidates, counted from the tokens' hits instead. Positions are not stored: no reader
 * needs them but phrases, and they were a third of the index.
 */
import { searchableText } from '../parse/identifiers';
import { chunkTexts } from './chunk-texts';
import { nameColumn, pathColumn } from './column-texts';
import type { IndexDatabase } from './database';
import { decodeInto, PostingList } from './postings-codec';
import { readTotals } from './postings-writer';
import { tokens } from './tokenize';

export { PostingList } from './postings-codec';

/** Columns by place in a posting's counts. */
export const COLUMNS = ['name', 'path', 'body'] as const;
export type Column = (typeof COLUMNS)[number];

/** One query term: a word (a phrase when it holds several tokens), all words it begins (`prefix`), in one column or all. */
export interface TermQuery {
  text: string;
  prefix?: boolean;
  column?: Column;
}

/** Rows ever indexed (removed ones included) and the average tokens per column, both as FTS4's matchinfo 'n' and 'a'. */
export interface PostingStats {
  docs: number;
  avg: [number, number, number];
}

const BATCH = 500;

export function postingStats(db: IndexDatabase): PostingStats {
  db.postings.flush(db);
  const t = readTotals(db);
  const docs = t.docs;
  // FTS4: (u32)(((u32)nToken + nDoc/2) / nDoc), in 64-bit arithmetic over a token total cut to 32 bits.
  const avg = t.tokens.map((n) => (docs ? Math.floor(((n % 0x100000000) + Math.floor(docs / 2)) / docs) % 0x100000000 : 0));
  return { docs, avg: avg as [number, number, number] };
}

/** The postings of `query`, in ascending chunk id (removed chunks included). */
export function termPostings(db: IndexDatabase, query: TermQuery): PostingList {
  db.postings.flush(db);
  const toks = tokens(query.text);
  let list: PostingList;
  if (!toks.length) list = new PostingList(0);
  else if (toks.length === 1) list = tokenPostings(db, toks[0]!, query.prefix === true);
  else list = phrasePostings(db, toks, query.prefix === true);
  return query.column ? onlyColumn(list, COLUMNS.indexOf(query.column)) : list;
}

/** Chunks matched by any of `queries`, ascending, with each query's counts per column (3 × queries slots a row). */
export interface AnyMatch {
  ids: Int32Array;
  counts: Uint32Array;
  length: number;
  /** Per query, the number of chunks it matched (removed ones included). */
  lists: PostingList[];
}

export function matchAny(db: IndexDatabase, queries: TermQuery[]): AnyMatch {
  const lists = queries.map((q) => termPostings(db, q));
  const p = lists.length;
  // Two passes over the lists, so the counts (3 × terms slots a row) are allocated once at their size: sized by the
  // lists' total they were tens of MB a question at 100k files, most of its garbage.
  const at = new Int32Array(p);
  const next = (): number => {
    let min = Infinity;
    for (let q = 0; q < p; q++) {
      const list = lists[q]!;
      const i = at[q]!;
      if (i < list.length && list.ids[i]! < min) min = list.ids[i]!;
    }
    return min;
  };
  let length = 0;
  for (let min = next(); min !== Infinity; min = next(), length++) {
    for (let q = 0; q < p; q++) if (at[q]! < lists[q]!.length && lists[q]!.ids[at[q]!] === min) at[q]!++;
  }
  const ids = new Int32Array(length);
  const counts = new Uint32Array(length * 3 * p);
  at.fill(0);
  for (let row = 0; row < length; row++) {
    const min = next();
    ids[row] = min;
    for (let q = 0; q < p; q++) {
      const list = lists[q]!;
      const i = at[q]!;
      if (i < list.length && list.ids[i] === min) {
        const to = (row * p + q) * 3;
        counts[to] = list.counts[3 * i]!;
        counts[to + 1] = list.counts[3 * i + 1]!;
        counts[to + 2] = list.counts[3 * i + 2]!;
        at[q] = i + 1;
      }
    }
  }
  return { ids, counts, length, lists };
}

/** Chunks matched by every one of `queries`, ascending (removed ones included). */
export function matchAll(db: IndexDatabase, queries: TermQuery[]): number[] {
  if (!queries.length) return [];
  const head = termPostings(db, queries[0]!);
  let ids = Array.from(head.idList());
  for (const q of queries.slice(1)) {
    if (!ids.length) break;
    const list = termPostings(db, q);
    const out: number[] = [];
    let j = 0;
    for (const id of ids) {
      while (j < list.length && list.ids[j]! < id) j++;
      if (j < list.length && list.ids[j] === id) out.push(id);
    }
    ids = out;
  }
  return ids;
}

/** Ids of removed chunks whose postings are still held. */
export function deadChunkIds(db: IndexDatabase): Set<number> {
  db.postings.flush(db);
  return new Set(db.rows('SELECT id FROM dead_chunks').map((r) => Number(r[0])));
}

export function deadChunkCount(db: IndexDatabase): number {
  db.postings.flush(db);
  return Number(db.getPrepared('SELECT count(*) AS n FROM dead_chunks', [])!.n);
}

/** Calls `fn` with each live chunk's length in tokens per column, of the given files' chunks (all when absent). */
export function eachChunkSize(db: IndexDatabase, fileIds: number[] | undefined, fn: (id: number, name: number, path: number, body: number) => void): void {
  db.postings.flush(db);
  const where = fileIds ? `WHERE id IN (SELECT id FROM chunk_spans WHERE file_id IN (${fileIds.map(() => '?').join(',')}))` : '';
  db.each(`SELECT id, name, path, body FROM chunk_sizes ${where}`, fileIds ?? [], (r) => fn(Number(r[0]), Number(r[1]), Number(r[2]), Number(r[3])));
}

/** Lengths per column (3 slots each, 0 for a chunk no longer indexed) of the chunks `ids`. */
export function chunkSizes(db: IndexDatabase, ids: ArrayLike<number>): Map<number, [number, number, number]> {
  db.postings.flush(db);
  const out = new Map<number, [number, number, number]>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = Array.from({ length: Math.min(BATCH, ids.length - i) }, (_, k) => ids[i + k]!);
    db.each(`SELECT id, name, path, body FROM chunk_sizes WHERE id IN (${part.map(() => '?').join(',')})`, part,
      (r) => out.set(Number(r[0]), [Number(r[1]), Number(r[2]), Number(r[3])]));
  }
  return out;
}

/**
 * One token's postings, or (prefix) those of every token it begins, summed per chunk. CROSS JOIN keeps the segments
 * the outer loop: without statistics sql.js's SQLite chose to scan the whole postings table instead (15-35 ms a
 * term at 10k files, against 0.1 ms for the seek).
 */
function tokenPostings(db: IndexDatabase, token: string, prefix: boolean): PostingList {
  if (!prefix) {
    const blobs: Uint8Array[] = [];
    db.each('SELECT p.data FROM postings_segs s CROSS JOIN postings p ON p.seg = s.seg AND p.term = ? ORDER BY s.seg', [token],
      (r) => blobs.push(r[0] as Uint8Array));
    return decodeAll(blobs);
  }
  const last = token.charCodeAt(token.length - 1);
  // The terms a prefix begins form one range in BINARY order, up to the prefix with its last character stepped.
  const bounded = last < 0xd7ff;
  const upper = bounded ? token.slice(0, -1) + String.fromCharCode(last + 1) : '';
  const byTerm = new Map<string, Uint8Array[]>();
  db.each(`SELECT p.term, p.data FROM postings_segs s CROSS JOIN postings p ON p.seg = s.seg AND p.term >= ?${bounded ? ' AND p.term < ?' : ''} ORDER BY s.seg`,
    bounded ? [token, upper] : [token], (r) => {
      const term = String(r[0]);
      if (!bounded && !term.startsWith(token)) return;
      const blobs = byTerm.get(term);
      if (blobs) blobs.push(r[1] as Uint8Array);
      else byTerm.set(term, [r[1] as Uint8Array]);
    });
  return sumLists([...byTerm.values()].map(decodeAll));
}

/**
 * One term's blobs decoded into one list, sized once: an entry takes two bytes at least (its id step and its code),
 * so half the bytes bound the entries (growing by doubling copied a frequent term's list several times).
 */
function decodeAll(blobs: Uint8Array[]): PostingList {
  let bytes = 0;
  for (const b of blobs) bytes += b.length;
  const list = new PostingList(bytes >> 1);
  for (const b of blobs) decodeInto(b, list);
  return list;
}

/**
 * The union of ascending lists, counts summed where ids meet, merged two at a time, the two shortest first (Huffman's
 * order, by two queues: the lists sorted, then the merges as they come). A prefix begins a few frequent words and a
 * long tail of rare ones: merged in rounds of pairs, every entry was copied once a round, log2 of the lists' number
 * times (`error*` at 124k files: 141 words, one of 282k entries, 8 rounds of ~380k, 100 ms); shortest first, the
 * frequent words meet last, once.
 */
function sumLists(lists: PostingList[]): PostingList {
  if (lists.length < 2) return lists[0] ?? new PostingList(0);
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  const merged: PostingList[] = [];
  let s = 0;
  let m = 0;
  const shortest = (): PostingList =>
    m < merged.length && (s === sorted.length || merged[m]!.length < sorted[s]!.length) ? merged[m++]! : sorted[s++]!;
  while (sorted.length - s + merged.length - m > 1) merged.push(mergeTwo(shortest(), shortest()));
  return shortest();
}

/** The union of `x` and `y`, counts summed where ids meet. */
function mergeTwo(x: PostingList, y: PostingList): PostingList {
  const out = new PostingList(x.length + y.length);
  const { ids, counts } = out;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < x.length && j < y.length) {
    const u = x.ids[i]!;
    const v = y.ids[j]!;
    if (u <= v) {
      ids[k] = u;
      counts[3 * k] = x.counts[3 * i]!;
      counts[3 * k + 1] = x.counts[3 * i + 1]!;
      counts[3 * k + 2] = x.counts[3 * i + 2]!;
      i++;
      if (u === v) {
        counts[3 * k] += y.counts[3 * j]!;
        counts[3 * k + 1] += y.counts[3 * j + 1]!;
        counts[3 * k + 2] += y.counts[3 * j + 2]!;
        j++;
      }
    } else {
      ids[k] = v;
      counts[3 * k] = y.counts[3 * j]!;
      counts[3 * k + 1] = y.counts[3 * j + 1]!;
      counts[3 * k + 2] = y.counts[3 * j + 2]!;
      j++;
    }
    k++;
  }
  // What is left of one list, copied whole.
  const [rest, from] = i < x.length ? [x, i] : [y, j];
  ids.set(rest.ids.subarray(from, rest.length), k);
  counts.set(rest.counts.subarray(3 * from, 3 * rest.length), 3 * k);
  out.length = k + rest.length - from;
  return out;
}

/** Keeps the entries with hits in column `col`, with the other columns' counts zeroed (FTS4's `col:term`). */
function onlyColumn(list: PostingList, col: number): PostingList {
  const out = new PostingList(list.length);
  for (let i = 0; i < list.length; i++) {
    const hits = list.counts[3 * i + col]!;
    if (hits) out.push(list.ids[i]!, col === 0 ? hits : 0, col === 1 ? hits : 0, col === 2 ? hits : 0);
  }
  return out;
}

/**
 * Phrase candidates checked on their text, at most. Each is a chunk rebuilt from its file's stored text (~0.1 ms):
 * at 100k files a common pair (`get_value`: chunks holding both `get` and `value`) had hundreds of thousands, 23 s.
 * The eval's questions, on the repositories they were written for, have at most 1,553 (tokio's `tokio_util`).
 */
export const PHRASE_CHECK_MAX = 4096;

/**
 * A phrase's postings: chunks holding all its tokens in one column, counted on that column's text where the tokens
 * stand in a row (overlapping matches count, as in FTS4). The last token is a prefix when `prefix`.
 * Past PHRASE_CHECK_MAX candidates the text is not read: a candidate counts, per column, the fewest hits of any of
 * the phrase's tokens there. That bounds the phrase's count from above, and equals it where the tokens occur only
 * together, as the parts of one identifier (`get_value` is indexed as `get value get value`: two hits either way).
 */
function phrasePostings(db: IndexDatabase, toks: string[], prefix: boolean): PostingList {
  const lists = toks.map((t, i) => tokenPostings(db, t, prefix && i === toks.length - 1));
  // Candidates: per chunk, a bit per column where every token is, and the fewest hits of a token per column.
  const first = lists[0]!;
  const candidates = new PostingList(Math.min(first.length, PHRASE_CHECK_MAX));
  const columns: number[] = [];
  const at = new Int32Array(lists.length);
  for (let i = 0; i < first.length; i++) {
    const id = first.ids[i]!;
    let name = first.counts[3 * i]!;
    let path = first.counts[3 * i + 1]!;
    let body = first.counts[3 * i + 2]!;
    for (let l = 1; l < lists.length && (name || path || body); l++) {
      const list = lists[l]!;
      let j = at[l]!;
      while (j < list.length && list.ids[j]! < id) j++;
      at[l] = j;
      if (j >= list.length || list.ids[j] !== id) name = path = body = 0;
      else {
        name = Math.min(name, list.counts[3 * j]!);
        path = Math.min(path, list.counts[3 * j + 1]!);
        body = Math.min(body, list.counts[3 * j + 2]!);
      }
    }
    if (!(name || path || body)) continue;
    candidates.push(id, name, path, body);
    columns.push((name ? 1 : 0) | (path ? 2 : 0) | (body ? 4 : 0));
  }
  if (candidates.length > PHRASE_CHECK_MAX) return candidates;
  const texts = columnTexts(db, new Map(columns.map((cols, i) => [candidates.ids[i]!, cols])));
  const out = new PostingList(candidates.length);
  columns.forEach((cols, i) => {
    const id = candidates.ids[i]!;
    const text = texts.get(id);
    if (!text) return;
    const hits = [0, 1, 2].map((c) => (cols & (1 << c) ? phraseHits(tokens(text[c]!), toks, prefix) : 0));
    if (hits[0] || hits[1] || hits[2]) out.push(id, hits[0]!, hits[1]!, hits[2]!);
  });
  return out;
}

/** Starts of `phrase` in `seq` (the last token a prefix when `prefix`). */
function phraseHits(seq: string[], phrase: string[], prefix: boolean): number {
  let hits = 0;
  const last = phrase.length - 1;
  for (let i = 0; i + last < seq.length; i++) {
    let k = 0;
    while (k < last && seq[i + k] === phrase[k]) k++;
    if (k === last && (prefix ? seq[i + k]!.startsWith(phrase[k]!) : seq[i + k] === phrase[k])) hits++;
  }
  return hits;
}

/** The column texts (name, path, body) of the candidates: rebuilt for live chunks, as kept for removed ones. */
function columnTexts(db: IndexDatabase, candidates: Map<number, number>): Map<number, [string, string, string]> {
  const out = new Map<number, [string, string, string]>();
  const ids = [...candidates.keys()];
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    const marks = part.map(() => '?').join(',');
    db.each(`SELECT id, name, path, body FROM dead_chunks WHERE id IN (${marks})`, part,
      (r) => out.set(Number(r[0]), [String(r[1]), String(r[2]), String(r[3])]));
    const live: Array<{ id: number; symbol: unknown; path: string }> = [];
    db.each(`SELECT c.id, c.symbol, f.path FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (${marks})`, part,
      (r) => live.push({ id: Number(r[0]), symbol: r[1], path: String(r[2]) }));
    // Bodies are rebuilt only where the body is a candidate column: the costly part.
    const bodies = chunkTexts(db, live.filter((c) => candidates.get(c.id)! & 4).map((c) => c.id));
    for (const c of live) {
      out.set(c.id, [nameColumn(c.symbol === null ? undefined : String(c.symbol)), pathColumn(c.path), searchableText(bodies.get(c.id) ?? '')]);
    }
  }
  return out;
}

/** Every term held, in term order (for tests and diagnostics: a question never lists them). */
export function indexedTerms(db: IndexDatabase): string[] {
  db.postings.flush(db);
  return db.rows('SELECT DISTINCT term FROM postings ORDER BY term').map((r) => String(r[0]));
}
