/**
 * The use table's pairs (use-table.ts: each file's names used) saved beside the index, so that a host opening an
 * unchanged index reads them in one piece instead of passing over every reference (12M rows at 124k files, ~3 CPU-s
 * of its warm-up). Like the repo map's snapshot (repomap/map-snapshot.ts) it records the index version it was made
 * from (meta created_at and updated_at, which every index run and commit that changes anything moves) and is used
 * only for that version. Layout: a magic line, a JSON header, then the two columns as raw little-endian int32s.
 */
import type { UsePairs } from './use-table';

/** The sidecar's name (IndexStorage.readSidecar). */
export const USES_SIDECAR = 'uses';

const MAGIC = 'context-oracle use table\n';
/** Bump when the layout or the meaning of a column changes. */
const FORMAT = 1;

interface Header {
  format: number;
  version: string;
  files: number;
  pairs: number;
}

/** The bytes, in parts to be written one after the other (the columns are the table's own, not copied). */
export function encodeUses(version: string, { usedAt, used }: UsePairs): Uint8Array[] {
  const header: Header = { format: FORMAT, version, files: usedAt.length, pairs: used.length };
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify(header)}\n`);
  // The columns start at a multiple of 4, so a reader can view them in place.
  const start = new Uint8Array(4 + Math.ceil(head.length / 4) * 4);
  new DataView(start.buffer).setUint32(0, head.length, true);
  start.set(head, 4);
  return [start, bytesOf(usedAt), bytesOf(used)];
}

/**
 * The pairs saved for index version `version`; undefined when the bytes are of another version or format. Throws on
 * bytes that are not a whole snapshot (the caller logs that and reads the index instead).
 */
export function decodeUses(bytes: Uint8Array, version: string): UsePairs | undefined {
  if (bytes.length < 4) throw new Error('not a saved use table');
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const head = new TextDecoder().decode(bytes.subarray(4, 4 + headLength));
  if (!head.startsWith(MAGIC)) throw new Error('not a saved use table');
  const header = JSON.parse(head.slice(MAGIC.length)) as Header;
  if (header.format !== FORMAT || header.version !== version) return undefined;
  const at = 4 + Math.ceil(headLength / 4) * 4;
  if (at + 4 * (header.files + header.pairs) !== bytes.length) throw new Error('saved use table cut short');
  // Copies: the bytes may be part of a larger buffer, or unaligned in it.
  const column = (from: number, length: number): Int32Array => new Int32Array(new Uint8Array(bytes.subarray(from, from + 4 * length)).buffer);
  return { usedAt: column(at, header.files), used: column(at + 4 * header.files, header.pairs) };
}

function bytesOf(c: Int32Array): Uint8Array {
  return new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
}
