/**
 * The full-text path: one postings query over the code chunks (store/postings.ts), scored twice from its counts. Per chunk, BM25 over
 * its name and body; per file, BM25 over the term counts of all its matching chunks (the whole-file view that suits
 * prose questions), plus how much of the question's rare vocabulary the file holds.
 */
import type { IndexDatabase } from '../store/database';
import type { ChunkMeta, ChunkTable } from './chunk-table';
import type { DbFacts } from './db-facts';
import { postingStats, termPostings, type PostingList } from '../store/postings';
import { widened } from './int-column';
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
  readonly bm25: number;
  /** Sum of idf of the question terms the file holds over the sum for all question terms (0..1). */
  readonly coverage: number;
  /** The best-scoring chunk (built when asked: thousands of files match, a few are shown). */
  readonly best?: ChunkHit;
  /** The best chunk's first line (0 when none), without building its row. */
  readonly bestLine: number;
  /** The file's best chunk scores, best first (TOP_CHUNKS of them). */
  readonly top: number[];
  /** Best share of the question's vocabulary (idf-weighted) held by a single chunk of the file. */
  readonly focus: number;
  /** The file's matching chunks (built when asked: a question reads them for a few files of thousands). */
  readonly hits: ChunkHit[];
  /** Per question term: body hits summed over the file's chunks (first `terms.length` slots), then path hits. */
  readonly tf: Float64Array;
}

/**
 * The matching files' scores in columns by place (0 … size - 1), for readers of every matching file (ranking): a
 * FileText view per file, and a boxed number per score it returned, were ~40 % of the bytes a question allocated at
 * 100k files (tens of thousands of files each).
 */
export interface FileScores {
  readonly size: number;
  /** File id by place. */
  readonly ids: Int32Array;
  readonly bm25: Float64Array;
  readonly coverage: Float64Array;
  readonly focus: Float64Array;
  /** The file's place, -1 when it did not match. */
  placeOf(fileId: number): number;
  /** The file's chunk scores as one number: the best, plus a little for the next two (0 for scores it lacks). */
  chunkAgg(place: number): number;
}

export interface TextEvidence {
  terms: string[];
  /** Weight of each term in the question (see questionTerms). */
  weights: number[];
  /** File-level idf of each term (absent terms get the idf of a term no file holds). */
  idf: number[];
  files: ReadonlyMap<number, FileText> & FileScores;
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
  /**
   * The row's file, as its place in the question's file list (a Map lookup per row cost more than scoring it); a
   * view of the question's scratch, read while the question is scored only.
   */
  file: Int32Array;
  order = new Int32Array(0);
  start = new Int32Array(1);
  /**
   * Every file's term counts (FileText.tf), `2 × terms` slots per file by place: an array per file was tens of
   * thousands of small buffers per question at 100k files, most of the collector's work.
   */
  tf = new Float64Array(0);

  constructor(readonly ids: Int32Array, readonly table: ChunkTable, file: Int32Array = new Int32Array(ids.length)) {
    this.bm25 = new Float64Array(ids.length);
    this.file = file;
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

/**
 * A file's text scores as the FileTexts columns hold them, made when asked (rank-files reads every matching file
 * once or twice, a question shows a few): an object per file held for the whole question, tens of thousands at 100k
 * files, was what the collector spent most of a question's pauses copying.
 */
class FileView implements FileText {
  constructor(private readonly texts: FileTexts, private readonly place: number) {}

  get fileId(): number {
    return this.texts.ids[this.place]!;
  }

  get bm25(): number {
    return this.texts.bm25[this.place]!;
  }

  get coverage(): number {
    return this.texts.coverage[this.place]!;
  }

  get focus(): number {
    return this.texts.focus[this.place]!;
  }

  get top(): number[] {
    // Copied by hand: Array.from over a typed array's view iterates it, ten times the cost at 100k files.
    const out: number[] = [];
    for (let at = this.place * TOP_CHUNKS, end = at + this.texts.topCount[this.place]!; at < end; at++) out.push(this.texts.top[at]!);
    return out;
  }

  /** Per term: body hits summed over the file's chunks (first `terms` slots), then path hits counted once. */
  get tf(): Float64Array {
    const n = 2 * this.texts.terms;
    return this.texts.rows.tf.subarray(this.place * n, (this.place + 1) * n);
  }

  get best(): ChunkHit | undefined {
    const row = this.texts.bestRow[this.place]!;
    return row >= 0 ? this.texts.rows.hit(row) : undefined;
  }

  get bestLine(): number {
    const row = this.texts.bestRow[this.place]!;
    return row >= 0 ? this.texts.rows.lineStart(row) : 0;
  }

  get hits(): ChunkHit[] {
    return Array.from(this.texts.rowList(this.place), (r) => this.texts.rows.hit(r));
  }
}

/**
 * The matching files by id, in the order their first row came: their ids and scores in columns by place, and each
 * file's place by id (a Map of tens of thousands of entries, built per question, cost more than scoring them at 100k
 * files; so did an object per file).
 */
class FileTexts implements ReadonlyMap<number, FileText>, FileScores {
  size = 0;
  ids = new Int32Array(0);
  bm25 = new Float64Array(0);
  coverage = new Float64Array(0);
  focus = new Float64Array(0);
  /** The file's best chunk scores, best first: TOP_CHUNKS slots by place, `topCount` of them held. */
  top = new Float64Array(0);
  topCount = new Uint8Array(0);
  /** The file's best row (-1 when none). */
  bestRow = new Int32Array(0);
  /** A file's place plus one, by file id (0: no match). */
  private places: Int32Array;

  constructor(fileIds: number, readonly terms: number, public rows: ChunkRows) {
    this.places = new Int32Array(fileIds);
  }

  /** The file's place, -1 when it has none. */
  placeOf(fileId: number): number {
    return fileId >= 0 && fileId < this.places.length ? this.places[fileId]! - 1 : -1;
  }

  /** Adds a file (not in yet) at the next place; its place. Call `scored` once every file is in. */
  add(fileId: number): number {
    if (fileId >= this.places.length) this.places = widened(this.places, fileId + 1);
    if (this.size === this.ids.length) this.ids = widened(this.ids, Math.max(2 * this.size, 1024));
    this.ids[this.size] = fileId;
    this.places[fileId] = ++this.size;
    return this.size - 1;
  }

  /** Makes the score columns, at the files' number. */
  scored(): void {
    const n = this.size;
    this.bm25 = new Float64Array(n);
    this.coverage = new Float64Array(n);
    this.focus = new Float64Array(n);
    this.top = new Float64Array(n * TOP_CHUNKS);
    this.topCount = new Uint8Array(n);
    this.bestRow = new Int32Array(n).fill(-1);
  }

  /** The file's rows in the order the search returned them (ascending chunk id). */
  rowList(place: number): Int32Array {
    return this.rows.order.subarray(this.rows.start[place]!, this.rows.start[place + 1]!);
  }

  chunkAgg(place: number): number {
    // Slots past the file's count hold 0, what a missing score counts as.
    const at = place * TOP_CHUNKS;
    return this.top[at]! + 0.25 * this.top[at + 1]! + 0.1 * this.top[at + 2]!;
  }

  /** Keeps the file's TOP_CHUNKS largest scores seen, largest first. */
  keepTop(place: number, score: number): void {
    const from = place * TOP_CHUNKS;
    const held = this.topCount[place]!;
    if (held === TOP_CHUNKS && score <= this.top[from + TOP_CHUNKS - 1]!) return;
    let at = Math.min(held, TOP_CHUNKS - 1);
    if (held < TOP_CHUNKS) this.topCount[place] = held + 1;
    while (at > 0 && this.top[from + at - 1]! < score) {
      this.top[from + at] = this.top[from + at - 1]!;
      at--;
    }
    this.top[from + at] = score;
  }

  get(id: number): FileText | undefined {
    const at = this.placeOf(id);
    return at >= 0 ? new FileView(this, at) : undefined;
  }

  has(id: number): boolean {
    return this.placeOf(id) >= 0;
  }

  /** The row of chunk `id` when it matched the question, else -1. */
  rowOf(id: number): number {
    const place = this.placeOf(this.rows.table.has(id) ? this.rows.table.fileOf(id) : -1);
    if (place < 0) return -1;
    for (const r of this.rowList(place)) if (this.rows.ids[r] === id) return r;
    return -1;
  }

  forEach(fn: (value: FileText, key: number, map: ReadonlyMap<number, FileText>) => void, thisArg?: unknown): void {
    for (let at = 0; at < this.size; at++) fn.call(thisArg, new FileView(this, at), this.ids[at]!, this);
  }

  *entries(): MapIterator<[number, FileText]> {
    for (let at = 0; at < this.size; at++) yield [this.ids[at]!, new FileView(this, at)];
  }

  *keys(): MapIterator<number> {
    for (let at = 0; at < this.size; at++) yield this.ids[at]!;
  }

  *values(): MapIterator<FileText> {
    for (let at = 0; at < this.size; at++) yield new FileView(this, at);
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

  /**
   * A view of `n` slots of the kept array `slot`, holding what the last question left: callers that read a slot
   * before writing it zero the view (zeroing every view was megabytes of writes a large question).
   */
  int32(slot: number, n: number): Int32Array {
    if ((this.ints[slot]?.length ?? -1) < n) this.ints[slot] = new Int32Array(Math.max(n, 2 * (this.ints[slot]?.length ?? 0)));
    return this.ints[slot]!.subarray(0, n);
  }

  float64(slot: number, n: number): Float64Array {
    if ((this.floats[slot]?.length ?? -1) < n) this.floats[slot] = new Float64Array(Math.max(n, 2 * (this.floats[slot]?.length ?? 0)));
    return this.floats[slot]!.subarray(0, n);
  }
}

const scratchOf = new WeakMap<ChunkTable, Scratch>();
/** Slots of Scratch.int32 (float64 has its own). */
const enum Ints { First, Last, Buf, Nested, Matched, UnionA, UnionB, RowFile }
const enum Floats { NameNorm, BodyNorm }

/**
 * Flags (by row) the chunks whose line range lies inside another matching chunk's range in the same file: widest
 * first, a chunk is nested when an earlier (wider or equal, earlier-starting) one spans it. A file's rows, in id
 * order, are nearly in that order already (the indexer numbers chunks in source order, the file's own header chunk
 * last), so they are put in order by insertion, stable as a sort of the id order; past a few moves per row, by
 * Array's (also stable) sort. Sorting every file's rows with a comparator was a tenth of a question at 100k files.
 */
function nestedRows(rows: ChunkRows, table: ChunkTable, scratch: Scratch): Int32Array {
  const out = scratch.int32(Ints.Nested, rows.count).fill(0);
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

/**
 * The first place at or after `from` whose id is at least `id` (`n` when none), in ascending `ids`: by doubling
 * steps, then halving, so a term held by few of a question's many rows skips the rows between its own.
 */
function seek(ids: Int32Array, n: number, from: number, id: number): number {
  if (from >= n || ids[from]! >= id) return from;
  // ids[lo] < id; ids[hi] >= id, or hi is n.
  let lo = from;
  let step = 1;
  while (lo + step < n && ids[lo + step]! < id) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo + step, n);
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid;
    else hi = mid;
  }
  return hi;
}

const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export function retrieveText(db: IndexDatabase, facts: DbFacts, query: WeightedTerms): TextEvidence {
  const { terms, weights } = query;
  const table = facts.chunks;
  const { relLength, countsForIdf } = facts.fileColumns();
  const files = new FileTexts(relLength.length, terms.length, new ChunkRows(new Int32Array(0), table));
  const evidence: TextEvidence = {
    terms, weights, idf: terms.map(() => idfOf(facts.files.size, 0)), files, held: 0,
    chunk: (id) => {
      const row = files.rowOf(id);
      return row >= 0 ? files.rows.hit(row) : undefined;
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
  const ids = liveUnion(lists, table, scratch);
  const rows = (files.rows = new ChunkRows(ids, table, scratch.int32(Ints.RowFile, ids.length)));
  // Per term and column: chunks holding the term there, removed ones included (as FTS4 counted them).
  const docsWithHits = new Uint32Array(p * c);
  lists.forEach((list, t) => {
    for (let i = 0; i < list.length; i++) for (let col = 0; col < c; col++) if (list.counts[3 * i + col]) docsWithHits[t * c + col]!++;
  });
  const chunkIdf = (t: number, col: number): number => idfOf(n, docsWithHits[t * c + col]!);
  const nameIdf = terms.map((_, t) => chunkIdf(t, COL_NAME));
  const bodyIdf = terms.map((_, t) => chunkIdf(t, COL_BODY));

  // Each row's file; files in the order their first row came.
  for (let i = 0; i < rows.count; i++) {
    const fileId = table.fileOf(rows.ids[i]!);
    const at = files.placeOf(fileId);
    rows.file[i] = at >= 0 ? at : files.add(fileId);
  }
  files.scored();
  const places = files.size;
  rows.group(places);
  const tf = (rows.tf = new Float64Array(places * 2 * p));
  // Which terms each chunk holds, one bit per term (MAX_QUERY_TERMS is 32).
  const matched = scratch.int32(Ints.Matched, rows.count).fill(0);
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
      i = seek(rows.ids, rows.count, i, id);
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
  for (let f = 0; f < places; f++) {
    const at = f * 2 * p;
    let held = 0;
    for (let t = 0; t < p; t++) if (tf[at + t]! + tf[at + p + t]! > 0) held |= 1 << t;
    evidence.held |= held;
    if (!countsForIdf[files.ids[f]!]) continue;
    for (let t = 0; t < p; t++) if (held & (1 << t)) df[t]!++;
  }
  const N = Math.max(facts.idfFiles, 1);
  evidence.idf = terms.map((_, t) => idfOf(N, df[t] ?? 0));
  const idfTotal = evidence.idf.reduce((a, b, t) => a + b * weights[t]!, 0) || 1;
  for (let place = 0; place < places; place++) {
    const fileId = files.ids[place]!;
    const at = place * 2 * p;
    const rel = fileId < relLength.length ? relLength[fileId]! : 1;
    let covered = 0;
    let bm25 = 0;
    for (let t = 0; t < p; t++) {
      const hits = tf[at + t]! + tf[at + p + t]!;
      if (!hits) continue;
      covered += evidence.idf[t]! * weights[t]!;
      bm25 += weights[t]! * evidence.idf[t]! * ((hits * (K1 + 1)) / (hits + K1 * (1 - B + B * rel)));
    }
    files.bm25[place] = bm25;
    files.coverage[place] = covered / idfTotal;
  }
  const shareOf = shares(evidence.idf, weights);
  // Rows in the order the search returned them: the first of equal best scores is the file's best.
  for (let i = 0; i < rows.count; i++) {
    const place = rows.file[i]!;
    const score = rows.bm25[i]!;
    files.keepTop(place, score);
    const mask = matched[i]!;
    const share = shareOf ? shareOf[mask]! : shareSum(mask, evidence.idf, weights);
    files.focus[place] = Math.max(files.focus[place]!, share / idfTotal);
    const best = files.bestRow[place]!;
    if (best < 0 || score > rows.bm25[best]!) files.bestRow[place] = i;
  }
  return evidence;
}

/** The question's idf-weighted vocabulary held by a chunk holding the terms of `mask`, summed in term order. */
function shareSum(mask: number, idf: number[], weights: number[]): number {
  let share = 0;
  for (let t = 0; mask; t++, mask >>>= 1) if (mask & 1) share += idf[t]! * weights[t]!;
  return share;
}

/** Terms up to which shares() tabulates every mask (2^12 sums). */
const SHARE_TABLE_TERMS = 12;

/**
 * shareSum of every mask, by mask, when the terms are few: each mask's sum is its mask without the highest bit's
 * plus that term's part, the same additions in the same order as shareSum's, so equal bit for bit.
 */
function shares(idf: number[], weights: number[]): Float64Array | undefined {
  const p = idf.length;
  if (p > SHARE_TABLE_TERMS) return undefined;
  const out = new Float64Array(1 << p);
  for (let t = 0; t < p; t++) {
    const part = idf[t]! * weights[t]!;
    for (let low = 0; low < 1 << t; low++) out[(1 << t) | low] = out[low]! + part;
  }
  return out;
}
