/**
 * Every chunk's file, kind, lines and symbol, in columns indexed by chunk id. As one object per chunk in a Map the
 * table took ~28 MB for 160k chunks, and V8 sizes the heap it grows to before collecting at a multiple of what
 * lives in it: the columns take ~4 MB. Rows are built on read, for the few thousand chunks a question matches. A
 * chunk's symbol is kept as an id in a table of distinct strings: decoding a string per chunk (2M at 124k files) and
 * looking it up in a pool cost more than the reader's lookup per distinct symbol (see setRow).
 */
import { widened } from './int-column';

export interface ChunkMeta {
  id: number;
  fileId: number;
  kind: string;
  lineStart: number;
  lineEnd: number;
  symbol?: string;
}

const INITIAL = 1024;

/** A table's columns up to its last id, its strings and kinds: what the serving facts save (context/saved-facts.ts). */
export interface ChunkColumns {
  kind: Uint16Array;
  file: Int32Array;
  start: Int32Array;
  end: Int32Array;
  nameLen: Int32Array;
  bodyLen: Int32Array;
  symbol: Int32Array;
  texts: string[];
  kinds: string[];
}

export class ChunkTable {
  /** Index into `kinds` plus one; 0 marks an id with no chunk. */
  private kindOf = new Uint16Array(INITIAL);
  private fileOfIds = new Int32Array(INITIAL);
  private startOf = new Int32Array(INITIAL);
  private endOf = new Int32Array(INITIAL);
  /** Full-text tokens in the chunk's name and body columns (store's chunk_sizes), for BM25's length normalisation. */
  private nameLenOf = new Int32Array(INITIAL);
  private bodyLenOf = new Int32Array(INITIAL);
  /** The symbol as its id in `texts` plus one; 0 for none. */
  private symbolOf = new Int32Array(INITIAL);
  private readonly texts: string[] = [];
  private readonly textIds = new Map<string, number>();
  private readonly kinds: string[] = [];
  private readonly kindIndex = new Map<string, number>();
  private count = 0;

  /** The table as saved columns (copies, cut after the last id in use). */
  columns(): ChunkColumns {
    let n = this.kindOf.length;
    while (n > 0 && !this.kindOf[n - 1]) n--;
    return {
      kind: this.kindOf.slice(0, n), file: this.fileOfIds.slice(0, n), start: this.startOf.slice(0, n), end: this.endOf.slice(0, n),
      nameLen: this.nameLenOf.slice(0, n), bodyLen: this.bodyLenOf.slice(0, n), symbol: this.symbolOf.slice(0, n), texts: [...this.texts], kinds: [...this.kinds],
    };
  }

  /** The table columns() saved; throws when they do not describe one (lengths differ, a kind or string out of range). */
  static fromColumns(c: ChunkColumns): ChunkTable {
    const n = c.kind.length;
    if ([c.file, c.start, c.end, c.nameLen, c.bodyLen, c.symbol].some((col) => col.length !== n)) throw new Error('chunk columns of different lengths');
    const t = new ChunkTable();
    t.grow(Math.max(n, INITIAL));
    let count = 0;
    for (let id = 0; id < n; id++) {
      const k = c.kind[id]!;
      if (!k) continue;
      if (k > c.kinds.length || c.symbol[id]! < 0 || c.symbol[id]! > c.texts.length) throw new Error(`chunk ${id} names a kind or string the table does not have`);
      count++;
    }
    t.kindOf.set(c.kind);
    t.fileOfIds.set(c.file);
    t.startOf.set(c.start);
    t.endOf.set(c.end);
    t.nameLenOf.set(c.nameLen);
    t.bodyLenOf.set(c.bodyLen);
    t.symbolOf.set(c.symbol);
    for (const s of c.texts) t.textId(s);
    for (const k of c.kinds) t.kindIndex.set(k, t.kinds.push(k));
    if (t.texts.length !== c.texts.length) throw new Error('chunk table strings repeat');
    t.count = count;
    return t;
  }

  get size(): number {
    return this.count;
  }

  get(id: number): ChunkMeta | undefined {
    const k = id >= 0 && id < this.kindOf.length ? this.kindOf[id]! : 0;
    if (!k) return undefined;
    const meta: ChunkMeta = { id, fileId: this.fileOfIds[id]!, kind: this.kinds[k - 1]!, lineStart: this.startOf[id]!, lineEnd: this.endOf[id]! };
    const symbol = this.symbolOf[id]!;
    if (symbol) meta.symbol = this.texts[symbol - 1]!;
    return meta;
  }

  set(meta: ChunkMeta): void {
    this.setRow(meta.id, meta.fileId, meta.kind, meta.lineStart, meta.lineEnd, meta.symbol === undefined ? 0 : this.textId(meta.symbol));
  }

  /** The id of `s` among the table's strings (added when new), for setRow(). */
  textId(s: string): number {
    let t = this.textIds.get(s);
    if (t === undefined) {
      this.texts.push(s);
      this.textIds.set(s, (t = this.texts.length));
    }
    return t;
  }

  /**
   * Sets a row whose symbol is given as a textId() (0 for none). The strings a table has seen stay in it (distinct
   * symbols: they repeat across files and commits). Rows hand out the one string per symbol: a string made per read
   * would be flattened and hashed again by every reader.
   */
  setRow(id: number, fileId: number, kind: string, lineStart: number, lineEnd: number, symbol: number): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) throw new RangeError(`chunk id ${id} out of range`);
    if (id >= this.kindOf.length) this.grow(id + 1);
    let k = this.kindIndex.get(kind);
    if (k === undefined) {
      this.kinds.push(kind);
      this.kindIndex.set(kind, (k = this.kinds.length));
    }
    if (!this.kindOf[id]) this.count++;
    this.kindOf[id] = k;
    this.fileOfIds[id] = fileId;
    this.startOf[id] = lineStart;
    this.endOf[id] = lineEnd;
    this.nameLenOf[id] = 0;
    this.bodyLenOf[id] = 0;
    this.symbolOf[id] = symbol;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.kindOf.length && this.kindOf[id] !== 0;
  }

  /** The chunk's file, first and last line, read without building a row (0 for an id with no chunk). */
  fileOf(id: number): number {
    return this.fileOfIds[id] ?? 0;
  }

  lineStartOf(id: number): number {
    return this.startOf[id] ?? 0;
  }

  lineEndOf(id: number): number {
    return this.endOf[id] ?? 0;
  }

  /** Records the chunk's column lengths in full-text tokens (ignored for an id with no chunk). */
  setLengths(id: number, name: number, body: number): void {
    if (!this.has(id)) return;
    this.nameLenOf[id] = name;
    this.bodyLenOf[id] = body;
  }

  /** Tokens in the chunk's name column (0 when unknown). */
  nameLength(id: number): number {
    return this.nameLenOf[id] ?? 0;
  }

  /** Tokens in the chunk's body column (0 when unknown). */
  bodyLength(id: number): number {
    return this.bodyLenOf[id] ?? 0;
  }

  delete(id: number): void {
    if (!this.has(id)) return;
    this.kindOf[id] = 0;
    this.nameLenOf[id] = 0;
    this.bodyLenOf[id] = 0;
    this.symbolOf[id] = 0;
    this.count--;
  }

  /** Deletes every chunk of the given files. */
  deleteFiles(fileIds: ReadonlySet<number>): void {
    if (!fileIds.size) return;
    for (let id = 0; id < this.kindOf.length; id++) if (this.kindOf[id] && fileIds.has(this.fileOfIds[id]!)) this.delete(id);
  }

  /** In id order. */
  *values(): IterableIterator<ChunkMeta> {
    for (let id = 0; id < this.kindOf.length; id++) if (this.kindOf[id]) yield this.get(id)!;
  }

  private grow(min: number): void {
    let n = this.kindOf.length;
    while (n < min) n *= 2;
    this.kindOf = widened(this.kindOf, n);
    this.fileOfIds = widened(this.fileOfIds, n);
    this.startOf = widened(this.startOf, n);
    this.endOf = widened(this.endOf, n);
    this.nameLenOf = widened(this.nameLenOf, n);
    this.bodyLenOf = widened(this.bodyLenOf, n);
    this.symbolOf = widened(this.symbolOf, n);
  }
}
