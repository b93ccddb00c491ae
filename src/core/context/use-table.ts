/**
 * Every use of every name in the index (calls, types, extends, implements), read in one pass when a long-running host
 * warms up: the names each file uses, in the order of first use, and the files using each name. A first question's
 * file graph (file-graph.ts) otherwise reads these per file and per name, ~13 % of its time at 10k files. Held in
 * typed arrays (~2 MB for 190k file–name pairs at 8k files). It describes one state of the index: the name index
 * drops it when a commit changes any file (name-index.ts).
 */
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from '../store/database';
import { IntColumn } from './int-column';

/** File ids read per step of the pass (the host handles other requests between steps). */
const FILES_PER_STEP = 2000;
/** Files per `IN (…)` list. */
const IN_LIST = 500;
/** File and name ids below this are read as one number, file * PACK + name. */
const PACK = 2 ** 26;

/** Each file's names used: file f's are `used[usedAt[f]]` up to `used[usedAt[f + 1]]` (name ids, in order of first use). */
export interface UsePairs {
  usedAt: Int32Array;
  used: Int32Array;
}

/** Name id → name, and name → id, from ref_names (ids are dense: it keeps every name in use). */
function readNames(db: IndexDatabase): { names: Array<string | undefined>; ids: Map<string, number> } {
  const names: Array<string | undefined> = [];
  const ids = new Map<string, number>();
  db.each('SELECT id, name FROM ref_names', [], ([id, name]) => {
    names[Number(id)] = String(name);
    ids.set(String(name), Number(id));
  });
  return { names, ids };
}

export class UseTable {
  private constructor(
    /** Name id → name. */
    private readonly names: Array<string | undefined>,
    private readonly ids: Map<string, number>,
    /** File id → its first name id in `used` (the next file id's entry ends it). */
    private readonly usedAt: Int32Array,
    private readonly used: Int32Array,
    /** Name id → its first file id in `users`, in file id order. */
    private readonly usersAt: Int32Array,
    private readonly users: Int32Array,
  ) {}

  /**
   * Reads the table from `db` in steps of FILES_PER_STEP files, awaiting `pause()` between them; undefined when
   * `current()` turns false meanwhile (the index changed under the pass). `useKinds`: the condition on ref_rows.kind.
   */
  static async read(db: IndexDatabase, useKinds: string, pause: () => Promise<void>, current: () => boolean): Promise<UseTable | undefined> {
    const { names, ids } = readNames(db);
    const maxFile = Number(db.get('SELECT max(file_id) AS n FROM ref_rows')?.n ?? -1);
    const fileCol = new IntColumn();
    const nameCol = new IntColumn();
    // The file a name was last used by: each file's names are kept once, at their first use.
    const lastUser = new Int32Array(names.length).fill(-1);
    const take = (f: number, n: number): void => {
      if (lastUser[n] === f) return;
      lastUser[n] = f;
      fileCol.push(f);
      nameCol.push(n);
    };
    // Twelve million rows at 124k files: one column per row instead of two saves a sixth of the pass (each column
    // read is two calls into sql.js). A file and name id fit one double exactly while ids stay below 2^26.
    const packed = maxFile < PACK && names.length <= PACK;
    const columns = packed ? `file_id * ${PACK} + name_id` : 'file_id, name_id';
    const row = packed
      ? ([v]: SqlValue[]): void => {
        const f = Math.floor(Number(v) / PACK);
        take(f, Number(v) - f * PACK);
      }
      : ([f, n]: SqlValue[]): void => take(Number(f), Number(n));
    for (let from = 0; from <= maxFile; from += FILES_PER_STEP) {
      await pause();
      if (!current()) return undefined;
      // (file_id, seq) is the primary key: rows come in the order each file's references were extracted.
      db.each(`SELECT ${columns} FROM ref_rows WHERE file_id >= ? AND file_id < ? AND ${useKinds} ORDER BY file_id, seq`, [from, from + FILES_PER_STEP], row);
    }
    const pairs = fileCol.length;
    const usedAt = new Int32Array(maxFile + 2);
    for (let i = 0; i < pairs; i++) usedAt[fileCol.values[i]! + 1]!++;
    for (let f = 1; f < usedAt.length; f++) usedAt[f]! += usedAt[f - 1]!;
    // Pairs came in file order, so the names used are already grouped by file.
    return UseTable.of(names, ids, usedAt, nameCol.values.slice(0, pairs));
  }

  /**
   * The table from pairs saved earlier (context/saved-uses.ts), with the names read from the index: saved for the
   * index as it is now, or for an earlier version of the same index when `changed` gives the files whose stamps moved
   * since (their pairs are read again, `useKinds` the condition on ref_rows.kind; every other file's are kept: ids
   * mean the same within one index, store/index-version.ts). Undefined when they do not fit it (a name id it does not
   * have, offsets out of order).
   */
  static fromSaved(db: IndexDatabase, saved: UsePairs, changed?: { files: ReadonlySet<number>; useKinds: string }): UseTable | undefined {
    const { names, ids } = readNames(db);
    const { usedAt, used } = saved;
    if (!usedAt.length || usedAt[0] !== 0 || usedAt[usedAt.length - 1] !== used.length) return undefined;
    for (let f = 1; f < usedAt.length; f++) if (usedAt[f]! < usedAt[f - 1]!) return undefined;
    const pairs = changed?.files.size ? patchedPairs(db, saved, changed.files, changed.useKinds) : saved;
    for (let i = 0; i < pairs.used.length; i++) if (pairs.used[i]! < 0 || names[pairs.used[i]!] === undefined) return undefined;
    return UseTable.of(names, ids, pairs.usedAt, pairs.used);
  }

  /** Each file's names used, by offset per file: what is saved beside the index. */
  get pairs(): UsePairs {
    return { usedAt: this.usedAt, used: this.used };
  }

  /** The table from each file's names used; the files using each name are derived from them. */
  private static of(names: Array<string | undefined>, ids: Map<string, number>, usedAt: Int32Array, used: Int32Array): UseTable {
    const pairs = used.length;
    const usersAt = new Int32Array(names.length + 1);
    for (let i = 0; i < pairs; i++) usersAt[used[i]! + 1]!++;
    for (let n = 1; n < usersAt.length; n++) usersAt[n]! += usersAt[n - 1]!;
    const users = new Int32Array(pairs);
    const fill = usersAt.slice(0, names.length);
    for (let f = 0; f + 1 < usedAt.length; f++) for (let i = usedAt[f]!; i < usedAt[f + 1]!; i++) users[fill[used[i]!]!++] = f;
    return new UseTable(names, ids, usedAt, used, usersAt, users);
  }

  /** The names `fileId` uses, each once, in the order of first use. */
  namesUsedBy(fileId: number): string[] {
    if (fileId < 0 || fileId + 1 >= this.usedAt.length) return [];
    const out: string[] = [];
    for (let i = this.usedAt[fileId]!; i < this.usedAt[fileId + 1]!; i++) out.push(this.names[this.used[i]!]!);
    return out;
  }

  /** The files using `name`, in file id order. */
  usersOf(name: string): Int32Array {
    const id = this.ids.get(name);
    if (id === undefined) return new Int32Array(0);
    return this.users.subarray(this.usersAt[id]!, this.usersAt[id + 1]!);
  }
}

/**
 * `saved` with the pairs of `files` read again from ref_rows as read() reads them (each file's names once, in the
 * order of first use); the other files' are copied.
 */
function patchedPairs(db: IndexDatabase, { usedAt, used }: UsePairs, files: ReadonlySet<number>, useKinds: string): UsePairs {
  const maxFile = Number(db.get('SELECT max(file_id) AS n FROM ref_rows')?.n ?? -1);
  const fresh = new Map<number, number[]>();
  const list = [...files].filter((f) => f >= 0 && f <= maxFile).sort((a, b) => a - b);
  for (let i = 0; i < list.length; i += IN_LIST) {
    const part = list.slice(i, i + IN_LIST);
    let last = -1;
    let own: number[] = [];
    let seen = new Set<number>();
    db.each(`SELECT file_id, name_id FROM ref_rows WHERE file_id IN (${part.map(() => '?').join(',')}) AND ${useKinds} ORDER BY file_id, seq`, part, ([f, n]) => {
      const file = Number(f);
      if (file !== last) {
        last = file;
        fresh.set(file, (own = []));
        seen = new Set();
      }
      const name = Number(n);
      if (seen.has(name)) return;
      seen.add(name);
      own.push(name);
    });
  }
  const savedFiles = usedAt.length - 1;
  const nextAt = new Int32Array(maxFile + 2);
  for (let f = 0; f <= maxFile; f++) {
    const n = files.has(f) ? fresh.get(f)?.length ?? 0 : f < savedFiles ? usedAt[f + 1]! - usedAt[f]! : 0;
    nextAt[f + 1] = nextAt[f]! + n;
  }
  const next = new Int32Array(nextAt[maxFile + 1]!);
  for (let f = 0; f <= maxFile; f++) {
    if (files.has(f)) next.set(fresh.get(f) ?? [], nextAt[f]!);
    else if (f < savedFiles) next.set(used.subarray(usedAt[f]!, usedAt[f + 1]!), nextAt[f]!);
  }
  return { usedAt: nextAt, used: next };
}
