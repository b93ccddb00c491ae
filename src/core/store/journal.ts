/**
 * The journal: commits made after the last whole image, appended as records so that a one-file commit writes
 * kilobytes instead of re-exporting the whole database (sql.js can only export all of it).
 *
 * Layout: a header line `CO-JOURNAL 1 <generation>\n`, then records of
 * `[u32 LE payload length][8 bytes of sha1(payload)][payload = v8-serialised IndexChange[]]`.
 * The generation ties the journal to one image (meta `generation`): a journal left over from an older image (the
 * writer was killed between writing a new image and resetting the journal) does not match and is ignored.
 * A record is all or nothing: a torn or damaged record ends the journal there (readers stop at it, the next writer
 * truncates it away), so a reader sees either the state before a commit or after it.
 */
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { IndexChange } from './changes';

const HEADER_PREFIX = 'CO-JOURNAL 1 ';
const RECORD_HEAD = 12;

export function journalHeader(generation: string): Uint8Array {
  return new TextEncoder().encode(`${HEADER_PREFIX}${generation}\n`);
}

function digest(payload: Uint8Array): Uint8Array {
  return createHash('sha1').update(payload).digest().subarray(0, 8);
}

export function encodeRecord(changes: IndexChange[]): Uint8Array {
  const payload = serialize(changes);
  const out = new Uint8Array(RECORD_HEAD + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out.set(digest(payload), 4);
  out.set(payload, RECORD_HEAD);
  return out;
}

export interface JournalRead {
  /** The generation named by the header (only when reading from offset 0). */
  generation?: string;
  /** Absolute offset of the first record (after the header when reading from 0). */
  start: number;
  /** Whole records in order, with their size in bytes (header included). */
  records: Array<{ changes: IndexChange[]; bytes: number }>;
  /** Absolute offset just after the last whole record: where the next record goes. */
  end: number;
  /** Bytes after `end` that are not a whole valid record (a torn append). */
  tornBytes: number;
}

/**
 * Parses journal bytes that start at absolute offset `at` (0 = the whole journal, header included). A missing or
 * malformed header reads as an empty journal of no generation.
 */
export function readJournal(bytes: Uint8Array, at: number): JournalRead {
  let pos = 0;
  let generation: string | undefined;
  if (at === 0) {
    const newline = bytes.indexOf(10);
    const head = newline > 0 ? new TextDecoder().decode(bytes.subarray(0, newline)) : '';
    if (!head.startsWith(HEADER_PREFIX)) return { start: 0, records: [], end: 0, tornBytes: bytes.length };
    generation = head.slice(HEADER_PREFIX.length);
    pos = newline + 1;
  }
  const first = pos;
  const records: JournalRead['records'] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (pos + RECORD_HEAD <= bytes.length) {
    const length = view.getUint32(pos, true);
    if (pos + RECORD_HEAD + length > bytes.length) break;
    const payload = bytes.subarray(pos + RECORD_HEAD, pos + RECORD_HEAD + length);
    const sum = digest(payload);
    let ok = true;
    for (let i = 0; i < 8; i++) if (sum[i] !== bytes[pos + 4 + i]) ok = false;
    if (!ok) break;
    let changes: IndexChange[];
    try {
      changes = deserialize(payload) as IndexChange[];
    } catch {
      break;
    }
    records.push({ changes, bytes: RECORD_HEAD + length });
    pos += RECORD_HEAD + length;
  }
  return { ...(generation !== undefined ? { generation } : {}), start: at + first, records, end: at + pos, tornBytes: bytes.length - pos };
}
