/**
 * The layout of the files saved beside the index (the repo map's snapshot, the use table, the serving facts): a
 * 4-byte header length, a magic line and a JSON header naming each column's type and length, then the columns as raw
 * little-endian bytes, each at a multiple of 8 so that a reader can view them in place.
 */

export type Column = Int32Array | Float64Array | Uint16Array | Uint8Array;

type ColumnType = 'i32' | 'f64' | 'u16' | 'u8';
/** Column name → [type, length], in the order the columns follow the header. */
type ColumnList = [string, ColumnType, number][];

const ARRAYS = { i32: Int32Array, f64: Float64Array, u16: Uint16Array, u8: Uint8Array } as const;

function typeOf(c: Column): ColumnType {
  return c instanceof Float64Array ? 'f64' : c instanceof Int32Array ? 'i32' : c instanceof Uint16Array ? 'u16' : 'u8';
}

/**
 * The file's bytes, in parts to be written one after the other: the columns are views of the caller's own, not
 * copied (one buffer of a whole map snapshot was ~130 MB at 100k files, on top of the graph).
 */
export function encodeColumns(magic: string, header: object, columns: [string, Column][]): Uint8Array[] {
  const list: ColumnList = columns.map(([n, c]) => [n, typeOf(c), c.length]);
  const head = new TextEncoder().encode(`${magic}${JSON.stringify({ ...header, columns: list })}\n`);
  const start = new Uint8Array(align(4 + head.length));
  new DataView(start.buffer).setUint32(0, head.length, true);
  start.set(head, 4);
  const parts: Uint8Array[] = [start];
  for (const [, c] of columns) {
    parts.push(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
    if (c.byteLength !== align(c.byteLength)) parts.push(new Uint8Array(align(c.byteLength) - c.byteLength));
  }
  return parts;
}

/**
 * The header and the columns of `bytes`; undefined when `accept` turns the header down (another format or version),
 * before any column is read. Throws (naming `what`) on bytes that are not such a file, or cut short. A
 * column is a view of `bytes` when they are a buffer of their own (the file read whole) and it sits aligned in it:
 * copies of a map snapshot's columns were ~110 MB at 100k files on top of the file's 130 MB. Otherwise a copy, so
 * that a larger buffer the bytes are part of is not kept alive (a Node Buffer's slice() is a view, so the copy is
 * made by the constructor).
 */
export function decodeColumns<H>(bytes: Uint8Array, magic: string, what: string, accept: (header: H) => boolean): { header: H; columns: Map<string, Column> } | undefined {
  if (bytes.length < 4) throw new Error(`not a ${what}`);
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const head = new TextDecoder().decode(bytes.subarray(4, 4 + headLength));
  if (!head.startsWith(magic)) throw new Error(`not a ${what}`);
  const header = JSON.parse(head.slice(magic.length)) as H & { columns: ColumnList };
  if (!accept(header)) return undefined;
  const columns = new Map<string, Column>();
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  let at = align(4 + headLength);
  for (const [n, type, length] of header.columns) {
    const Array = ARRAYS[type];
    if (!Array || !Number.isInteger(length) || length < 0) throw new Error(`${what} has a column ${n} of unknown type or length`);
    const width = Array.BYTES_PER_ELEMENT;
    if (at + length * width > bytes.length) throw new Error(`${what} cut short in column ${n}`);
    const offset = bytes.byteOffset + at;
    const raw = own && offset % width === 0 ? { buffer: bytes.buffer, offset } : { buffer: new Uint8Array(bytes.subarray(at, at + length * width)).buffer, offset: 0 };
    columns.set(n, new Array(raw.buffer as ArrayBuffer, raw.offset, length));
    at = align(at + length * width);
  }
  // Every column is padded, the last one too: a whole file ends exactly there.
  if (bytes.length < at) throw new Error(`${what} cut short after its last column`);
  if (bytes.length > at) throw new Error(`${what} has ${bytes.length - at} bytes after its last column`);
  return { header, columns };
}

/**
 * A list of strings as two columns: their UTF-8 bytes one after the other, and each one's length in UTF-16 units
 * (-1 for a hole). Undefined when a string is not well formed (a lone surrogate would not read back as it was).
 */
export function encodeStrings(list: ReadonlyArray<string | undefined>): [bytes: Uint8Array, lengths: Int32Array] | undefined {
  const lengths = new Int32Array(list.length);
  const present: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    if (s === undefined) lengths[i] = -1;
    else {
      if (LONE_SURROGATE.test(s)) return undefined;
      lengths[i] = s.length;
      present.push(s);
    }
  }
  return [new TextEncoder().encode(present.join('')), lengths];
}

/**
 * The strings encodeStrings() wrote, decoded in one piece and cut (a decoder call per string cost ~1 µs each, and
 * the lists hold millions). Throws when the lengths do not add up to the bytes.
 */
export function decodeStrings(bytes: Uint8Array, lengths: Int32Array, what: string): Array<string | undefined> {
  const all = new TextDecoder().decode(bytes);
  const out: Array<string | undefined> = new Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i]!;
    if (n < 0) continue;
    out[i] = all.slice(at, at + n);
    at += n;
  }
  if (at !== all.length) throw new Error(`${what}: string lengths do not match their bytes`);
  return out;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}
