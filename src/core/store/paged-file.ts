/**
 * The database file sql.js works on, kept out of memory.
 *
 * sql.js keeps its database in Emscripten's MEMFS, where a file is one JS byte array: the whole index resident in
 * every process that opens it (~170 MB at 10k files), and again at every export. MEMFS only touches a file's
 * `contents` through `contents.subarray(start, end)` (reads, then copied at once) and `contents.set(bytes, at)`
 * (writes, after checking `contents.length` for room), so an object answering those calls can stand in for the
 * array. A PagedFile does: reads come from an image file on disk (an open file: the version that was opened, even
 * after a writer replaces it) and writes go to copy-on-write chunks in memory, or, for a database being built, straight
 * to a draft file on disk.
 */
import type { ImageDraft, ImageFile } from '../ports';

/** Overlay granularity: 16 pages of 4 KiB. Small enough that a one-file commit dirties little, large enough to keep the map small. */
const CHUNK = 64 * 1024;
/** Bytes read at once from the base when reads run in file order (see PagedFile.ahead). */
const READ_AHEAD = 64 * 1024;
/** Reads in a row, each starting where the last ended, before reading ahead (a pass, not a lookup that happens to follow). */
const RUN_AHEAD = 3;
/** SQLite reads and writes at most one page at a time (64 KiB at most); a larger subarray is MEMFS copying the file. */
const MAX_PAGE = 64 * 1024;

export class PagedFile {
  /** Capacity as MEMFS sees it: never short, so MEMFS never "grows" the file by copying it into a new array. */
  readonly length = Number.MAX_SAFE_INTEGER;
  /** Bytes in the file. */
  size: number;
  /**
   * MEMFS copied the whole file into an array of its own (it does that to truncate, which SQLite only does to roll
   * back a transaction that grew the file past a cache spill, or to VACUUM in place): from then on the database no
   * longer reads or writes through this object, and the database must be exported instead of streamed.
   */
  detached = false;
  private readonly chunks = new Map<number, Uint8Array>();
  private scratch = new Int8Array(MAX_PAGE);
  /**
   * The base's bytes at `aheadAt`, read in one call once RUN_AHEAD reads in a row each ran on from where the last
   * ended: a pass over a table reads its pages in file order, one 4 KiB read call each (a million calls for a 1.5 GB
   * index's warm-up).
   */
  private ahead: Uint8Array | undefined;
  private aheadAt = -1;
  private aheadLength = 0;
  private lastEnd = -1;
  /** Reads in a row that started where the one before ended: a question's lookups rarely make a run of RUN_AHEAD. */
  private run = 0;

  /**
   * `base`: the bytes under the overlay (none for an empty file). `through`: write to this file instead of the
   * overlay (it is also the base).
   */
  constructor(private readonly base: ImageFile | undefined, private readonly through?: ImageDraft) {
    this.size = base?.size ?? 0;
  }

  /** Bytes held in memory by the overlay. */
  overlayBytes(): number {
    return this.chunks.size * CHUNK;
  }

  /** MEMFS reads: the caller copies the result at once, so a reused scratch view is enough. */
  subarray(start: number, end: number): Int8Array {
    const length = Math.max(0, end - start);
    if (length > MAX_PAGE) {
      this.detached = true;
      const all = new Int8Array(length);
      this.read(new Uint8Array(all.buffer), start);
      return all;
    }
    const view = this.scratch.subarray(0, length);
    this.read(new Uint8Array(view.buffer, 0, length), start);
    return view;
  }

  /** MEMFS writes (`bytes` is a view of the WASM heap, an Int8Array). */
  set(bytes: ArrayBufferView, position: number): void {
    this.write(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), position);
  }

  /** Fills `into` with the bytes at `position` (zeros past the end); returns how many were in the file. */
  read(into: Uint8Array, position: number): number {
    const inFile = Math.max(0, Math.min(into.length, this.size - position));
    if (this.through) {
      readFully(this.through, into.subarray(0, inFile), position);
      into.fill(0, inFile);
      return inFile;
    }
    eachChunk(position, into.length, (index, offset, done, n) => {
      const chunk = this.chunks.get(index);
      const part = into.subarray(done, done + n);
      if (chunk) part.set(chunk.subarray(offset, offset + n));
      else this.readBase(part, position + done);
    });
    if (inFile < into.length) into.fill(0, inFile);
    return inFile;
  }

  write(bytes: Uint8Array, position: number): void {
    this.size = Math.max(this.size, position + bytes.length);
    if (this.through) {
      this.through.write(bytes, position);
      return;
    }
    eachChunk(position, bytes.length, (index, offset, done, n) => {
      let chunk = this.chunks.get(index);
      if (!chunk) {
        chunk = new Uint8Array(CHUNK);
        // Copy on write: the rest of the chunk keeps the base's bytes.
        if (n < CHUNK) this.readBase(chunk, index * CHUNK);
        this.chunks.set(index, chunk);
      }
      chunk.set(bytes.subarray(done, done + n), offset);
    });
  }

  private readBase(into: Uint8Array, position: number): void {
    const n = this.base ? Math.max(0, Math.min(into.length, this.base.size - position)) : 0;
    const end = position + n;
    this.run = position === this.lastEnd ? this.run + 1 : 0;
    this.lastEnd = end;
    if (n > 0 && position >= this.aheadAt && end <= this.aheadAt + this.aheadLength) {
      into.set(this.ahead!.subarray(position - this.aheadAt, end - this.aheadAt));
    } else if (n > 0 && this.run >= RUN_AHEAD && n < READ_AHEAD) {
      this.ahead ??= new Uint8Array(READ_AHEAD);
      this.aheadAt = position;
      this.aheadLength = Math.min(READ_AHEAD, this.base!.size - position);
      readFully(this.base!, this.ahead.subarray(0, this.aheadLength), position);
      into.set(this.ahead.subarray(0, n));
    } else if (n > 0) {
      readFully(this.base!, into.subarray(0, n), position);
    }
    into.fill(0, n);
  }

  /** The object to hand to `new SQL.Database(…)`: MEMFS takes its `slice()` as the new file's contents. */
  installer(): { length: number; subarray: () => never; slice: () => PagedFile } {
    return {
      // MEMFS sets the file's size from this; a file must not be empty, or MEMFS keeps its own array.
      length: this.size,
      subarray: () => { throw new Error('PagedFile installer: unexpected read'); },
      slice: () => this,
    };
  }
}

/** Splits [position, position + length) at chunk boundaries: fn(chunk index, offset in it, offset in the range, bytes). */
function eachChunk(position: number, length: number, fn: (index: number, offset: number, done: number, n: number) => void): void {
  let done = 0;
  while (done < length) {
    const at = position + done;
    const index = Math.floor(at / CHUNK);
    const offset = at - index * CHUNK;
    const n = Math.min(length - done, CHUNK - offset);
    fn(index, offset, done, n);
    done += n;
  }
}

function readFully(file: ImageFile, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = file.read(into.subarray(done), position + done);
    if (n <= 0) throw new Error(`index image ended at byte ${position + done}, ${into.length - done} bytes short`);
    done += n;
  }
}

/** An image held in memory (tests, and the few-page schema a new database starts from). */
export function memoryImage(bytes: Uint8Array): ImageFile {
  return {
    size: bytes.length,
    read(into, position) {
      const part = bytes.subarray(position, position + into.length);
      into.set(part);
      return part.length;
    },
    close() {},
  };
}
