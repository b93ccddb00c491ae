/**
 * The full-text path: one postings query over the code chunks (store/postings.ts), scored twice from its counts. Per chunk, BM25 over
 * its name and body; per file, BM25 over the term counts of all its matching chunks (the whole-file view that suits
 * prose questions), plus how much of the question's rare vocabulary the file holds.
 */
import type { IndexDatabase } from '../store/database';
import type { ChunkMeta, ChunkTable } from './chunk-table';
import type { DbFacts } from './db-facts';
import { postingStats, termPostings, type PostingList } from '../store/postings';
import { termQuery, type WeightedTerms } from './terms';

const K1 = 1.2;
const B = 0.75;
/** Column weights for chunk BM25: a question word in a symbol's name says more than one in its body. */
const NAME_WEIGHT = 3;
const COL_NAME = 0;
const COL_PATH = 1;
const COL_BODY = 2;
/** Chunk scores kept per file (FileText.top). */
const TOP_CHUNKS = 5;

export interface ChunkHit extends ChunkMeta {
  bm25: number;
}

export interface FileText {
  bm25: number;
  /** Sum of idf of the question terms the file holds over the sum for all question terms (0..1). */
  coverage: number;
  /** The best-scoring chunk (built when asked: thousands of files match, a few are shown). */
  readonly best?: ChunkHit;
  /** The best chunk's first line (0 when none), without building its row. */
  readonly bestLine: number;
  /** The file's best chunk scores, best first (TOP_CHUNKS of them). */
  top: number[];
  /** Best share of the question's vocabulary (idf-weighted) held by a single chunk of the file. */
  focus: number;
  /** The file's matching chunks (built when asked: a question reads them for a few files of thousands). */
  readonly hits: ChunkHit[];
  /** Per question term: body hits summed over the file's chunks (first `terms.length` slots), then path hits. */
  readonly tf: Float64Array;
}

export interface TextEvidence {
  terms: string[];
  /** Weight of each term in the question (see questionTerms). */
  weights: number[];
  /** File-level idf of each term (absent terms get the idf of a term no file holds). */
  idf: number[];
  files: ReadonlyMap<number, FileText>;
  /** One bit per term (by index): some matching file holds it, in a body or a path. */
  held: number;
  /** The chunk's hit when it matched the question. */
  chunk(id: number): ChunkHit | undefined;
}

/**
 * A question's matching chunks, in columns by row, in ascending chunk id (a frequent word matches tens of thousands
 * of chunks: an object per chunk made most of a question's garbage). Rows are grouped by file in `order`: the file
 * at place `f` holds rows `order[start[f]] … order[start[f + 1] - 1]`, ascending.
 */
class ChunkRows {
  bm25: Float64Array;
  /** The row's file, as its place in the question's file list (a Map lookup per row cost more than scoring it). */
  file: Int32Array;
  order = new Int32Array(0);
  start = new Int32Array(1);
  /**
   * Every file's term counts (FileText.tf), `2 × terms` slots per file by place: an array per file was tens of
   * thousands of small buffers per question at 100k files, most of the collector's work.
   */
  tf = new Float64Array(0);

  constructor(readonly ids: Int32Array, private readonly table: ChunkTable) {
    this.bm25 = new Float64Array(ids.length);
    this.file = new Int32Array(ids.length);
  }

  get count(): number {
    return this.ids.length;
  }

  /** Groups the rows by file (a counting sort by place: rows stay ascending within a file). */
  group(places: number): void {
    const start = new Int32Array(places + 1);
    for (let i = 0; i < this.count; i++) start[this.file[i]! + 1]!++;
    for (let f = 0; f < places; f++) start[f + 1]! += start[f]!;
    const fill = start.slice(0, places);
    const order = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) order[fill[this.file[i]!]!++] = i;
    this.order = order;
    this.start = start;
  }

  lineStart(row: number): number {
    return this.table.lineStartOf(this.ids[row]!);
  }

  hit(row: number): ChunkHit {
    return { ...this.table.get(this.ids[row]!)!, bm25: this.bm25[row]! };
  }
}

class FileHits implements FileText {
  bm25 = 0;
  coverage = 0;
  focus = 0;
  top: number[] = [];
  bestRow = -1;
  constructor(readonly fileId: number, private readonly place: number, private readonly terms: number, private readonly rows: ChunkRows) {}

  /** Per term: body hits summed over the file's chunks (first `terms` slots), then path hits counted once. */
  get tf(): Float64Array {
    const at = this.place * 2 * this.terms;
    return this.rows.tf.subarray(at, at + 2 * this.terms);
  }

  /** The file's rows in the order the search returned them (ascending chunk id). */
  rowList(): Int32Array {
    return this.rows.order.subarray(this.rows.start[this.place]!, this.rows.start[this.place + 1]!);
  }

  get best(): ChunkHit | undefined {
    return this.bestRow >= 0 ? this.rows.hit(this.bestRow) : undefined;
  }

  get bestLine(): number {
    return this.bestRow >= 0 ? this.rows.lineStart(this.bestRow) : 0;
  }

  get hits(): ChunkHit[] {
    return Array.from(this.rowList(), (r) => this.rows.hit(r));
  }

  rowOf(id: number): number {
    for (const r of this.rowList()) if (this.rows.ids[r] === id) return r;
    return -1;
  }
}

/**
 * The matching files by id, in the order their first row came: a list and each file's place by id (a Map of tens
 * of thousands of entries, built per question, cost more than scoring them at 100k files).
 */
class FileTexts implements ReadonlyMap<number, FileText> {
  readonly list: FileHits[] = [];
  /** A file's place in `list` plus one, by file id (0: no match). */
  private places: Int32Array;

  constructor(fileIds: number) {
    this.places = new Int32Array(fileIds);
  }

  /** The file's place in `list`, -1 when it has none. */
  placeOf(fileId: number): number {
    return fileId >= 0 && fileId < this.places.length ? this.places[fileId]! - 1 : -1;
  }

  /** Adds a file (not in yet) at the end of `list`; its place. */
  add(file: FileHits): number {
    const id = file.fileId;
    if (id >= this.places.length) {
      const grown = new Int32Array(id + 1);
      grown.set(this.places);
      this.places = grown;
    }
    this.places[id] = this.list.push(file);
    return this.list.length - 1;
  }

  get size(): number {
    return this.list.length;
  }

  get(id: number): FileHits | undefined {
    const at = this.placeOf(id);
    return at >= 0 ? this.list[at] : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  forEach(fn: (value: FileText, key: number, map: ReadonlyMap<number, FileText>) => void, thisArg?: unknown): void {
    for (const f of this.list) fn.call(thisArg, f, f.fileId, this);
  }

  *entries(): MapIterator<[number, FileText]> {
    for (const f of this.list) yield [f.fileId, f];
  }

  *keys(): MapIterator<number> {
    for (const f of this.list) yield f.fileId;
  }

  *values(): MapIterator<FileText> {
    yield* this.list;
  }

  [Symbol.iterator](): MapIterator<[number, FileText]> {
    return this.entries();
  }
}

/**
 * Per-row working arrays of one question, kept for the next ones on the same index (by its chunk table): made anew
 * they were ~30 bytes a matching chunk, megabytes a question that V8 counts as external memory and collects for.
 * Views into them never leave retrieveText, which runs to its end without yielding.
 */
class Scratch {
  private readonly ints: Int32Array[] = [];
  private readonly floats: Float64Array[] = [];

  /** A zeroed view of `n` slots of the kept array `slot`. */
  int32(slot: number, n: number): Int32Array {
    if ((this.ints[slot]?.length ?? -1) < n) this.ints[slot] = new Int32Array(Math.max(n, 2 * (this.ints[slot]?.length ?? 0)));
    const view = this.ints[slot]!.subarray(0, n);
    view.fill(0);
    return view;
  }

  float64(slot: number, n: number): Float64Array {
    if ((this.floats[slot]?.length ?? -1) < n) this.floats[slot] = new Float64Array(Math.max(n, 2 * (this.floats[slot]?.length ?? 0)));
    const view = this.floats[slot]!.subarray(0, n);
    view.fill(0);
    return view;
  }
}

const scratchOf = new WeakMap<ChunkTable, Scratch>();
/** Slots of Scratch.int32 (float64 has its own). */
const enum Ints { First, Last, Buf, Nested, Matched, UnionA, UnionB }
const enum Floats { NameNorm, BodyNorm }

/**
 * Flags (by row) the chunks whose line range lies inside another matching chunk's range in the same file: widest
 * first, a chunk is nested when an earlier (wider or equal, earlier-starting) one spans it. A file's rows, in id
 * order, are nearly in that order already (the indexer numbers chunks in source order, the file's own header chunk
 * last), so they are put in order by insertion, stable as a sort of the id order; past a few moves per row, by
 * Array's (also stable) sort. Sorting every file's rows with a comparator was a tenth of a question at 100k files.
 */
function nestedRows(rows: ChunkRows, table: ChunkTable, scratch: Scratch): Int32Array {
  const out = scratch.int32(Ints.Nested, rows.count);
  const { order, start: from, ids } = rows;
  // Each row's lines, read once in id order (the table's columns are read at random otherwise).
  const first = scratch.int32(Ints.First, rows.count);
  const last = scratch.int32(Ints.Last, rows.count);
  for (let i = 0; i < rows.count; i++) {
    first[i] = table.lineStartOf(ids[i]!);
    last[i] = table.lineEndOf(ids[i]!);
  }
  const before = (x: number, y: number): number => first[x]! - first[y]! || last[y]! - last[x]!;
  const buf = scratch.int32(Ints.Buf, rows.count);
  for (let f = 0; f + 1 < from.length; f++) {
    const a = from[f]!;
    const n = from[f + 1]! - a;
    if (n < 2) continue;
    for (let k = 0; k < n; k++) buf[k] = order[a + k]!;
    let moves = 0;
    for (let k = 1; k < n && moves <= 8 * n; k++) {
      const v = buf[k]!;
      let j = k;
      for (; j > 0 && before(buf[j - 1]!, v) > 0; j--) buf[j] = buf[j - 1]!;
      buf[j] = v;
      moves += k - j;
    }
    if (moves > 8 * n) {
      const sorted = Array.from(order.subarray(a, a + n)).sort(before);
      for (let k = 0; k < n; k++) buf[k] = sorted[k]!;
    }
    let outerEnd = -1;
    for (let k = 0; k < n; k++) {
      const i = buf[k]!;
      if (last[i]! <= outerEnd) out[i] = 1;
      else outerEnd = last[i]!;
    }
  }
  return out;
}

/**
 * The ids of the live chunks (in `table`) in any of the lists, ascending: pairwise merges, each round written into
 * one of two scratch arrays after the other's (a round's output is never longer than its input), then the removed
 * left out.
 */
function liveUnion(lists: PostingList[], table: ChunkTable, scratch: Scratch): Int32Array {
  let round = lists.map((l) => l.idList());
  let total = 0;
  for (const l of round) total += l.length;
  for (let r = 0; round.length > 1; r++) {
    const into = scratch.int32(r % 2 ? Ints.UnionB : Ints.UnionA, total);
    const next: Int32Array[] = [];
    let at = 0;
    for (let i = 0; i < round.length; i += 2) {
      const part = i + 1 < round.length ? unionTwo(round[i]!, round[i + 1]!, into, at) : copyInto(round[i]!, into, at);
      next.push(part);
      at += part.length;
    }
    round = next;
  }
  const all = round[0] ?? new Int32Array(0);
  let live = 0;
  for (let i = 0; i < all.length; i++) if (table.has(all[i]!)) live++;
  const out = new Int32Array(live);
  for (let i = 0, k = 0; i < all.length; i++) if (table.has(all[i]!)) out[k++] = all[i]!;
  return out;
}

function copyInto(a: Int32Array, into: Int32Array, at: number): Int32Array {
  into.set(a, at);
  return into.subarray(at, at + a.length);
}

/** The union of ascending `a` and `b`, written into `into` from `at`; the view written. */
function unionTwo(a: Int32Array, b: Int32Array, into: Int32Array, at: number): Int32Array {
  let i = 0;
  let j = 0;
  let k = at;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x <= y) i++;
    if (y <= x) j++;
    into[k++] = x < y ? x : y;
  }
  while (i < a.length) into[k++] = a[i++]!;
  while (j < b.length) into[k++] = b[j++]!;
  return into.subarray(at, k);
}

const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export function retrieveText(db: IndexDatabase, facts: DbFacts, query: WeightedTerms): TextEvidence {
  const { terms, weights } = query;
  const table = facts.chunks;
  let rows = new ChunkRows(new Int32Array(0), table);
  const { relLength, countsForIdf } = facts.fileColumns();
  const files = new FileTexts(relLength.length);
  const evidence: TextEvidence = {
    terms, weights, idf: terms.map(() => idfOf(facts.files.size, 0)), files, held: 0,
    chunk: (id) => {
      const f = table.has(id) ? files.get(table.fileOf(id)) : undefined;
      const row = f ? f.rowOf(id) : -1;
      return row >= 0 ? rows.hit(row) : undefined;
    },
  };
  if (!terms.length) return evidence;
  const lists = terms.map((t) => termPostings(db, termQuery(t)));
  if (!lists.some((l) => l.length)) return evidence;
  const p = terms.length;
  const c = 3;
  const stats = postingStats(db);
  const n = stats.docs;
  const avg = [stats.avg[0] || 1, stats.avg[1] || 1, stats.avg[2] || 1];

  // Chunk facts (file, lines, symbol, column lengths) come from the in-memory table: joining them in SQL costs more
  // than the search. Rows of removed chunks (their postings stay until compaction) are left out here.
  let scratch = scratchOf.get(table);
  if (!scratch) scratchOf.set(table, (scratch = new Scratch()));
  rows = new ChunkRows(liveUnion(lists, table, scratch), table);
  // Per term and column: chunks holding the term there, removed ones included (as FTS4 counted them).
  const docsWithHits = new Uint32Array(p * c);
  lists.forEach((list, t) => {
    for (let i = 0; i < list.length; i++) for (let col = 0; col < c; col++) if (list.counts[3 * i + col]) docsWithHits[t * c + col]!++;
  });
  const chunkIdf = (t: number, col: number): number => idfOf(n, docsWithHits[t * c + col]!);
  const nameIdf = terms.map((_, t) => chunkIdf(t, COL_NAME));
  const bodyIdf = terms.map((_, t) => chunkIdf(t, COL_BODY));

  // Each row's file; files in the order their first row came.
  const list = files.list;
  for (let i = 0; i < rows.count; i++) {
    const fileId = table.fileOf(rows.ids[i]!);
    const at = files.placeOf(fileId);
    rows.file[i] = at >= 0 ? at : files.add(new FileHits(fileId, files.size, p, rows));
  }
  rows.group(list.length);
  const tf = (rows.tf = new Float64Array(list.length * 2 * p));
  // Which terms each chunk holds, one bit per term (MAX_QUERY_TERMS is 32).
  const matched = scratch.int32(Ints.Matched, rows.count);
  // A nested definition's text is also inside its enclosing chunk: count its words once, in the outer chunk.
  const nested = nestedRows(rows, table, scratch);
  // Length normalisation per column, the same for every term of a chunk.
  const nameNorm = scratch.float64(Floats.NameNorm, rows.count);
  const bodyNorm = scratch.float64(Floats.BodyNorm, rows.count);
  for (let i = 0; i < rows.count; i++) {
    const id = rows.ids[i]!;
    nameNorm[i] = K1 * (1 - B + (B * table.nameLength(id)) / avg[COL_NAME]!);
    bodyNorm[i] = K1 * (1 - B + (B * table.bodyLength(id)) / avg[COL_BODY]!);
  }
  // Chunk BM25, one term's list at a time (its rows found by walking the ascending rows alongside): a row's score
  // adds its terms' parts in term order, name before body, as one sum per row would.
  for (let t = 0; t < p; t++) {
    const hits = lists[t]!;
    const nameW = weights[t]! * NAME_WEIGHT * nameIdf[t]!;
    const bodyW = weights[t]! * bodyIdf[t]!;
    const bit = 1 << t;
    let i = 0;
    for (let e = 0; e < hits.length; e++) {
      const id = hits.ids[e]!;
      while (i < rows.count && rows.ids[i]! < id) i++;
      if (i === rows.count) break;
      if (rows.ids[i] !== id) continue;
      const at = rows.file[i]! * 2 * p;
      const inName = hits.counts[3 * e + COL_NAME]!;
      const inPath = hits.counts[3 * e + COL_PATH]!;
      const inBody = hits.counts[3 * e + COL_BODY]!;
      if (inPath > tf[at + p + t]!) tf[at + p + t] = inPath;
      if (inName + inBody === 0) continue;
      matched[i]! |= bit;
      if (nested[i] === 0) tf[at + t] += inBody;
      if (inName) rows.bm25[i] += nameW * ((inName * (K1 + 1)) / (inName + nameNorm[i]!));
      if (inBody) rows.bm25[i] += bodyW * ((inBody * (K1 + 1)) / (inBody + bodyNorm[i]!));
    }
  }

  // File-level idf over files, not chunks: a term in every chunk of one file is still a rare term.
  const df = new Array<number>(p).fill(0);
  // Generated copies (dist/, vendored trees) repeat the code's vocabulary; they do not count towards how common a
  // term is.
  for (let f = 0; f < list.length; f++) {
    const at = f * 2 * p;
    let held = 0;
    for (let t = 0; t < p; t++) if (tf[at + t]! + tf[at + p + t]! > 0) held |= 1 << t;
    evidence.held |= held;
    if (!countsForIdf[list[f]!.fileId]) continue;
    for (let t = 0; t < p; t++) if (held & (1 << t)) df[t]!++;
  }
  const N = Math.max(facts.idfFiles, 1);
  evidence.idf = terms.map((_, t) => idfOf(N, df[t] ?? 0));
  const idfTotal = evidence.idf.reduce((a, b, t) => a + b * weights[t]!, 0) || 1;
  for (let place = 0; place < list.length; place++) {
    const f = list[place]!;
    const at = place * 2 * p;
    const rel = f.fileId < relLength.length ? relLength[f.fileId]! : 1;
    let covered = 0;
    for (let t = 0; t < p; t++) {
      const hits = tf[at + t]! + tf[at + p + t]!;
      if (!hits) continue;
      covered += evidence.idf[t]! * weights[t]!;
      f.bm25 += weights[t]! * evidence.idf[t]! * ((hits * (K1 + 1)) / (hits + K1 * (1 - B + B * rel)));
    }
    f.coverage = covered / idfTotal;
  }
  // Rows in the order the search returned them: the first of equal best scores is the file's best.
  for (let i = 0; i < rows.count; i++) {
    const f = list[rows.file[i]!]!;
    const score = rows.bm25[i]!;
    keepTop(f.top, score);
    let share = 0;
    for (let t = 0, mask = matched[i]!; mask; t++, mask >>>= 1) if (mask & 1) share += evidence.idf[t]! * weights[t]!;
    f.focus = Math.max(f.focus, share / idfTotal);
    if (f.bestRow < 0 || score > rows.bm25[f.bestRow]!) f.bestRow = i;
  }
  return evidence;
}

/** Keeps `top` the TOP_CHUNKS largest scores seen, largest first. */
function keepTop(top: number[], score: number): void {
  if (top.length === TOP_CHUNKS && score <= top[TOP_CHUNKS - 1]!) return;
  let at = Math.min(top.length, TOP_CHUNKS - 1);
  if (top.length < TOP_CHUNKS) top.push(score);
  while (at > 0 && top[at - 1]! < score) {
    top[at] = top[at - 1]!;
    at--;
  }
  top[at] = score;
}
