/**
 * The bytes of a term's postings (one `postings.data` blob): one or more runs, each `count` then `count` entries in
 * ascending chunk id. An entry is the id as a delta from the run's previous one (from 0 for its first), then
 * `body × 4 + (name > 0) × 2 + (path > 0)`, then the name count and the path count when flagged: a term mostly sits in
 * bodies, so most entries take two or three bytes. Varints are little-endian base 128 (ids and counts stay below 2^32). Runs concatenate: merging
 * segments whose ids ascend is appending their blobs (postings-writer.ts).
 */

/** Bytes kept free before a run's entries for its count, written when the run is taken (no copy). */
const HEAD = 5;

/** A term's postings being collected for one write (one run). */
export class TermBuffer {
  bytes = new Uint8Array(16);
  length = HEAD;
  count = 0;
  last = 0;
  /** The run's first chunk id (0 while empty). */
  first = 0;

  push(id: number, name: number, path: number, body: number): void {
    if (this.length + 25 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2 + 25);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    if (this.count === 0) this.first = id;
    this.varint(id - this.last);
    this.varint(body * 4 + (name > 0 ? 2 : 0) + (path > 0 ? 1 : 0));
    if (name > 0) this.varint(name);
    if (path > 0) this.varint(path);
    this.last = id;
    this.count++;
  }

  /** Bytes of entries held. */
  get size(): number {
    return this.length - HEAD;
  }

  /** The run: its count, then the entries (a view of the buffer). */
  run(): Uint8Array {
    const head = varintBytes(this.count);
    const at = HEAD - head.length;
    this.bytes.set(head, at);
    return this.bytes.subarray(at, this.length);
  }

  private varint(v: number): void {
    const b = this.bytes;
    while (v >= 0x80) {
      b[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.length++] = v;
  }
}

function varintBytes(v: number): Uint8Array {
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** Decoded postings in ascending chunk id: `counts` holds name, path and body hits per entry (3 slots each). */
export class PostingList {
  ids: Int32Array;
  counts: Uint32Array;
  length = 0;

  constructor(capacity = 64) {
    this.ids = new Int32Array(capacity);
    this.counts = new Uint32Array(capacity * 3);
  }

  push(id: number, name: number, path: number, body: number): void {
    if (this.length === this.ids.length) this.grow(this.length * 2 + 1);
    const at = this.length++;
    this.ids[at] = id;
    this.counts[3 * at] = name;
    this.counts[3 * at + 1] = path;
    this.counts[3 * at + 2] = body;
  }

  /** The ids, without the spare capacity. */
  idList(): Int32Array {
    return this.ids.subarray(0, this.length);
  }

  grow(capacity: number): void {
    if (capacity <= this.ids.length) return;
    const ids = new Int32Array(capacity);
    ids.set(this.ids.subarray(0, this.length));
    const counts = new Uint32Array(capacity * 3);
    counts.set(this.counts.subarray(0, this.length * 3));
    this.ids = ids;
    this.counts = counts;
  }
}

/** Appends the entries of a `postings.data` blob to `out`. */
export function decodeInto(data: Uint8Array, out: PostingList): void {
  let at = 0;
  const n = data.length;
  const read = (): number => {
    let b = data[at++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let scale = 128;
    for (;;) {
      b = data[at++]!;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  };
  while (at < n) {
    const count = read();
    if (out.length + count > out.ids.length) out.grow(Math.max(out.length + count, out.ids.length * 2));
    let id = 0;
    for (let k = 0; k < count; k++) {
      id += read();
      const code = read();
      const name = code & 2 ? read() : 0;
      const path = code & 1 ? read() : 0;
      const i = out.length++;
      out.ids[i] = id;
      out.counts[3 * i] = name;
      out.counts[3 * i + 1] = path;
      out.counts[3 * i + 2] = Math.floor(code / 4);
    }
  }
}
