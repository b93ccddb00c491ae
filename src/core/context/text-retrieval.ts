/**
 * The full-text path: one postings query over the code chunks (store/postings.ts), scored twice from its counts. Per chunk, BM25 over
 * its name and body; per file, BM25 over the term counts of all its matching chunks (the whole-file view that suits
 * prose questions), plus how much of the question's rare vocabulary the file holds.
 */
import type { IndexDatabase } from '../store/database';
import type { ChunkMeta, ChunkTable } from './chunk-table';
import type { DbFacts } from './db-facts';
import { matchAny, postingStats } from '../store/postings';
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
  files: Map<number, FileText>;
  /** One bit per term (by index): some matching file holds it, in a body or a path. */
  held: number;
  /** The chunk's hit when it matched the question. */
  chunk(id: number): ChunkHit | undefined;
}

/**
 * A question's matching chunks, in columns by row (a frequent word matches tens of thousands of chunks: an object
 * per chunk made most of a question's garbage). Each file's rows are chained from its last one through `next`.
 */
class ChunkRows {
  ids: Int32Array;
  count = 0;
  /** Filled once every row is in (see scored()). */
  bm25 = new Float64Array(0);
  next = new Int32Array(0);
  /** The row's file, as its place in the question's file list (a Map lookup per row cost more than scoring it). */
  file = new Int32Array(0);
  /**
   * Every file's term counts (FileText.tf), `2 × terms` slots per file by place: an array per file was tens of
   * thousands of small buffers per question at 100k files, most of the collector's work.
   */
  tf = new Float64Array(0);

  constructor(capacity: number, private readonly table: ChunkTable) {
    this.ids = new Int32Array(capacity);
  }

  push(id: number): void {
    if (this.count === this.ids.length) {
      const ids = new Int32Array(this.count * 2);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.ids[this.count++] = id;
  }

  /** Makes room for each row's score and file chain, once the rows are all in. */
  scored(): void {
    this.bm25 = new Float64Array(this.count);
    this.next = new Int32Array(this.count);
    this.file = new Int32Array(this.count);
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
  /** The file's last row (rows chain backwards through ChunkRows.next), -1 when none. */
  last = -1;
  bestRow = -1;
  constructor(readonly fileId: number, private readonly place: number, private readonly terms: number, private readonly rows: ChunkRows) {}

  /** Per term: body hits summed over the file's chunks (first `terms` slots), then path hits counted once. */
  get tf(): Float64Array {
    const at = this.place * 2 * this.terms;
    return this.rows.tf.subarray(at, at + 2 * this.terms);
  }

  /** The file's rows in the order the search returned them. */
  rowList(): number[] {
    const out: number[] = [];
    for (let r = this.last; r >= 0; r = this.rows.next[r]!) out.push(r);
    return out.reverse();
  }

  get best(): ChunkHit | undefined {
    return this.bestRow >= 0 ? this.rows.hit(this.bestRow) : undefined;
  }

  get bestLine(): number {
    return this.bestRow >= 0 ? this.rows.lineStart(this.bestRow) : 0;
  }

  get hits(): ChunkHit[] {
    return this.rowList().map((r) => this.rows.hit(r));
  }

  rowOf(id: number): number {
    for (let r = this.last; r >= 0; r = this.rows.next[r]!) if (this.rows.ids[r] === id) return r;
    return -1;
  }
}

/** Flags (by row) the chunks whose line range lies inside another matching chunk's range in the same file. */
function nestedRows(files: Map<number, FileHits>, rows: ChunkRows, table: ChunkTable): Uint8Array {
  const out = new Uint8Array(rows.count);
  const start = (i: number): number => table.lineStartOf(rows.ids[i]!);
  const end = (i: number): number => table.lineEndOf(rows.ids[i]!);
  for (const file of files.values()) {
    if (file.last < 0 || rows.next[file.last]! < 0) continue;
    const list = file.rowList();
    // Widest first: a chunk is nested when an earlier (wider or equal, earlier-starting) one spans it.
    list.sort((a, b) => start(a) - start(b) || end(b) - end(a));
    let outerEnd = -1;
    for (const i of list) {
      if (end(i) <= outerEnd) out[i] = 1;
      else outerEnd = end(i);
    }
  }
  return out;
}

const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export function retrieveText(db: IndexDatabase, facts: DbFacts, query: WeightedTerms): TextEvidence {
  const { terms, weights } = query;
  const table = facts.chunks;
  const rows = new ChunkRows(1024, table);
  const files = new Map<number, FileHits>();
  const evidence: TextEvidence = {
    terms, weights, idf: terms.map(() => idfOf(facts.files.size, 0)), files, held: 0,
    chunk: (id) => {
      const f = table.has(id) ? files.get(table.fileOf(id)) : undefined;
      const row = f ? f.rowOf(id) : -1;
      return row >= 0 ? rows.hit(row) : undefined;
    },
  };
  if (!terms.length) return evidence;
  const match = matchAny(db, terms.map(termQuery));
  if (!match.length) return evidence;
  const p = terms.length;
  const c = 3;
  const stats = postingStats(db);
  const n = stats.docs;
  const avg = [stats.avg[0] || 1, stats.avg[1] || 1, stats.avg[2] || 1];

  // Chunk facts (file, lines, symbol, column lengths) come from the in-memory table: joining them in SQL costs more
  // than the search. Rows of removed chunks (their postings stay until compaction) are left out here.
  const stride = p * c;
  // The live rows' counts, moved up in place over the removed ones' (a row's new place is never after its own).
  const counts = match.counts;
  for (let r = 0; r < match.length; r++) {
    const id = match.ids[r]!;
    if (!table.has(id)) continue;
    const to = rows.count * stride;
    if (to !== r * stride) counts.copyWithin(to, r * stride, (r + 1) * stride);
    rows.push(id);
  }
  // Per term and column: chunks holding the term there, removed ones included (as FTS4 counted them).
  const docsWithHits = new Uint32Array(stride);
  match.lists.forEach((list, t) => {
    for (let i = 0; i < list.length; i++) for (let col = 0; col < c; col++) if (list.counts[3 * i + col]) docsWithHits[t * c + col]!++;
  });
  const chunkIdf = (t: number, col: number): number => idfOf(n, docsWithHits[t * c + col]!);
  const nameIdf = terms.map((_, t) => chunkIdf(t, COL_NAME));
  const bodyIdf = terms.map((_, t) => chunkIdf(t, COL_BODY));

  rows.scored();
  // Each file's rows, chained; files in the order their first row came. A file's place in `list`, plus one, by id.
  const { relLength, countsForIdf } = facts.fileColumns();
  const list: FileHits[] = [];
  let placeOf = new Int32Array(relLength.length);
  for (let i = 0; i < rows.count; i++) {
    const fileId = table.fileOf(rows.ids[i]!);
    if (fileId >= placeOf.length) {
      const grown = new Int32Array(fileId + 1);
      grown.set(placeOf);
      placeOf = grown;
    }
    let at = placeOf[fileId]! - 1;
    if (at < 0) {
      const file = new FileHits(fileId, list.length, p, rows);
      files.set(fileId, file);
      at = list.push(file) - 1;
      placeOf[fileId] = at + 1;
    }
    const file = list[at]!;
    rows.file[i] = at;
    rows.next[i] = file.last;
    file.last = i;
  }
  const tf = (rows.tf = new Float64Array(list.length * 2 * p));
  // Which terms each chunk holds, one bit per term (MAX_QUERY_TERMS is 32).
  const matched = new Uint32Array(rows.count);
  // A nested definition's text is also inside its enclosing chunk: count its words once, in the outer chunk.
  const nested = nestedRows(files, rows, table);
  for (let i = 0; i < rows.count; i++) {
    const id = rows.ids[i]!;
    const row = i * stride;
    const at = rows.file[i]! * 2 * p;
    let score = 0;
    let mask = 0;
    const outer = nested[i] === 0;
    // Length normalisation per column is the same for every term of this chunk.
    const nameNorm = K1 * (1 - B + (B * table.nameLength(id)) / avg[COL_NAME]!);
    const bodyNorm = K1 * (1 - B + (B * table.bodyLength(id)) / avg[COL_BODY]!);
    for (let t = 0; t < p; t++) {
      const base = row + t * c;
      const inName = counts[base + COL_NAME]!;
      const inPath = counts[base + COL_PATH]!;
      const inBody = counts[base + COL_BODY]!;
      if (inPath > tf[at + p + t]!) tf[at + p + t] = inPath;
      if (inName + inBody === 0) continue;
      mask |= 1 << t;
      if (outer) tf[at + t] += inBody;
      if (inName) score += weights[t]! * NAME_WEIGHT * nameIdf[t]! * ((inName * (K1 + 1)) / (inName + nameNorm));
      if (inBody) score += weights[t]! * bodyIdf[t]! * ((inBody * (K1 + 1)) / (inBody + bodyNorm));
    }
    rows.bm25[i] = score;
    matched[i] = mask;
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
