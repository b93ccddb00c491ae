/**
 * The journal: commits made after the last whole image, appended as records so that a one-file commit writes
 * kilobytes instead of re-exporting the whole database (sql.js can only export all of it).
 *
 * Layout: a header line `CO-JOURNAL 1 <generation>\n`, then records of
 * `[u32 LE payload length][8 bytes of sha1(payload)][payload = v8-serialised IndexChange[]]`.
 * The generation ties the journal to one image (meta `generation`): a journal left over from an older image (the
 * writer was killed between writing a new image and resetting the journal) does not match and is ignored.
 * A record is all or nothing: a torn or damaged record ends the journal there (readers stop at it, the next writer
 * truncates it away), so a reader sees either the state before a commit or after it. What ended it is reported
 * (JournalDamage): the commits from there on are lost to readers, and the engine has the files re-checked.
 */
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { IndexChange } from './changes';

const HEADER_PREFIX = 'CO-JOURNAL 1 ';
const RECORD_HEAD = 12;
/** Generations are hex (persistence.ts writes 16 digits); anything else in the header is damage. */
const GENERATION = /^[0-9a-f]{1,64}$/;
/**
 * No record is this long (commits past the journal limit, at most tens of MiB, become images): a longer length is
 * a damaged length field, not a record still being written.
 */
const MAX_RECORD = 256 << 20;

/**
 * Why a journal stops before its last byte.
 * - `torn`: it ends inside a record (or its header line): an append cut short, as a crash or kill mid-write leaves.
 * - `corrupt`: a whole record (or the header) is not what was written: its checksum fails, its payload does not
 *   read, or its length is impossible. Committed data was lost to readers.
 */
export interface JournalDamage {
  kind: 'torn' | 'corrupt';
  /** Absolute journal offset where the damage starts (the start of the bad record). */
  at: number;
  /** What is wrong, for logs and status. */
  detail: string;
}

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
  /** Bytes after `end` that are not a whole valid record. */
  tornBytes: number;
  /** Set when bytes follow `end` (or the header is bad): what ended the journal there. */
  damage?: JournalDamage;
}

/**
 * Parses journal bytes that start at absolute offset `at` (0 = the whole journal, header included). A missing or
 * malformed header reads as an empty journal of no generation.
 */
export function readJournal(bytes: Uint8Array, at: number): JournalRead {
  let pos = 0;
  let generation: string | undefined;
  if (at === 0 && bytes.length) {
    const newline = bytes.indexOf(10);
    const head = new TextDecoder().decode(bytes.subarray(0, newline >= 0 ? newline : Math.min(bytes.length, 100)));
    const generationPart = head.slice(HEADER_PREFIX.length);
    if (newline < 0 && HEADER_PREFIX.startsWith(head.slice(0, HEADER_PREFIX.length)) && (!generationPart || GENERATION.test(generationPart))) {
      return { start: 0, records: [], end: 0, tornBytes: bytes.length, damage: { kind: 'torn', at: 0, detail: 'the journal header is cut short' } };
    }
    if (newline < 0 || !head.startsWith(HEADER_PREFIX) || !GENERATION.test(generationPart)) {
      return { start: 0, records: [], end: 0, tornBytes: bytes.length, damage: { kind: 'corrupt', at: 0, detail: 'the journal header is damaged' } };
    }
    generation = generationPart;
    pos = newline + 1;
  }
  const first = pos;
  const records: JournalRead['records'] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let damage: JournalDamage | undefined;
  while (pos < bytes.length) {
    const where = at + pos;
    if (pos + RECORD_HEAD > bytes.length) {
      damage = { kind: 'torn', at: where, detail: `the record at byte ${where} is cut short (${bytes.length - pos} of at least ${RECORD_HEAD} bytes)` };
      break;
    }
    const length = view.getUint32(pos, true);
    if (length > MAX_RECORD) {
      damage = { kind: 'corrupt', at: where, detail: `the record at byte ${where} has an impossible length (${length} bytes)` };
      break;
    }
    if (pos + RECORD_HEAD + length > bytes.length) {
      damage = { kind: 'torn', at: where, detail: `the record at byte ${where} is cut short (${bytes.length - pos} of ${RECORD_HEAD + length} bytes)` };
      break;
    }
    const payload = bytes.subarray(pos + RECORD_HEAD, pos + RECORD_HEAD + length);
    const sum = digest(payload);
    let ok = true;
    for (let i = 0; i < 8; i++) if (sum[i] !== bytes[pos + 4 + i]) ok = false;
    if (!ok) {
      damage = { kind: 'corrupt', at: where, detail: `the record at byte ${where} fails its checksum` };
      break;
    }
    let changes: IndexChange[];
    try {
      changes = deserialize(payload) as IndexChange[];
    } catch (e) {
      damage = { kind: 'corrupt', at: where, detail: `the record at byte ${where} does not read (${e instanceof Error ? e.message : String(e)})` };
      break;
    }
    records.push({ changes, bytes: RECORD_HEAD + length });
    pos += RECORD_HEAD + length;
  }
  return {
    ...(generation !== undefined ? { generation } : {}),
    start: at + first, records, end: at + pos, tornBytes: bytes.length - pos, ...(damage ? { damage } : {}),
  };
}
