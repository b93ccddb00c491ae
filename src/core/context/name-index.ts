/**
 * Who defines and who uses each symbol name, in memory, for the file graph (file-graph.ts) and fuzzy name matching.
 * Definitions are read with the other facts; uses are read per name on first need (a name's users are a few
 * hundred index rows, all names' users a million). A commit updates both for the files it rewrote.
 */
import type { IndexDatabase } from '../store/database';
import { REFERENCE_KIND_CODES } from '../store/schema';
import type { ReferenceKind } from '../parse/types';
import { byCodePoint } from '../strings';
import { UseTable, type UsePairs } from './use-table';

/** Reference kinds that tie a file to the definition it names. */
const USE: readonly ReferenceKind[] = ['call', 'type', 'class', 'implementation'];
export const USE_KINDS = `(${USE.map((k) => `'${k}'`).join(',')})`;
/** The same kinds as ref_rows stores them, for queries on that table (its (name_id, kind) index covers them). */
const USE_CODES = USE.map((k) => REFERENCE_KIND_CODES.indexOf(k));
const USE_KIND_CODES = `(${USE_CODES.join(',')})`;
/**
 * The same kinds as a condition for a scan of ref_rows, where no index covers the kind: a range when the codes are
 * contiguous (they are the first four), since `IN (…)` looks each row's kind up in a temporary index (a sixth of
 * the pass over every reference in loadUses()).
 */
const USE_KIND_SCAN = USE_CODES.every((c, i) => i === 0 || c === USE_CODES[i - 1]! + 1) && USE_CODES.every((c) => c >= 0)
  ? `kind BETWEEN ${USE_CODES[0]} AND ${USE_CODES[USE_CODES.length - 1]}`
  : `kind IN ${USE_KIND_CODES}`;
/** Files using the names bound to the placeholders, straight from ref_rows (the `refs` view works out every kind's name). */
const usersSql = (placeholders: string) =>
  `SELECT DISTINCT n.name, r.file_id FROM ref_names n JOIN ref_rows r ON r.name_id = n.id WHERE n.name IN (${placeholders}) AND r.kind IN ${USE_KIND_CODES}`;
/** Kinds whose names are too local (a field `id`, a variable `data`) to link files by. */
export const UNLINKED_KINDS: ReadonlySet<string> = new Set(['field', 'variable']);
/** Files per `IN (…)` list. */
const IN_LIST = 500;

export class NameIndex {
  /** Name → how many files define it (any kind). */
  readonly definingFiles = new Map<string, number>();
  /**
   * Name → files defining it as something other than a field or variable, in the order added: a bare id for the
   * common single definer (a Set per name held ~8 MB at 10k files, most of them of one file).
   */
  private readonly definers = new Map<string, number | number[]>();
  /** File → distinct names it defines (any kind), and those other than fields and variables. */
  private readonly names = new Map<number, string[]>();
  private readonly linkedNames = new Map<number, string[]>();
  /** Name → files using it; filled per name on first need. */
  private readonly users = new Map<string, Set<number>>();
  private sorted: string[] | undefined;
  /** Names whose defining-file count went from 0 to 1, or from 1 to 0, since the last settle(). */
  private readonly created = new Set<string>();
  private readonly dropped = new Set<string>();
  /** Every use, read at once by loadUses(); dropped by any change to the files (see use-table.ts). */
  private uses: UseTable | undefined;
  /** Counts changes, so that a pass of loadUses() that a commit overtook is thrown away. */
  private changes = 0;

  constructor(private readonly db: IndexDatabase) {}

  /**
   * Symbols of files not yet in the index, fed to the callback one at a time: the file, the name's id in `names`, and
   * whether its kind links files (UNLINKED_KINDS do not). Names are handled by id until the end (2M rows at 124k
   * files): each file's distinct names are found with a mark per name id rather than a set of strings, and each
   * name's count of defining files is added once rather than once per file.
   */
  addSymbols(names: ReadonlyArray<string | undefined>, read: (fn: (fileId: number, nameId: number, linked: boolean) => void) => void): SymbolLists {
    const all = new Map<number, number[]>();
    const linked = new Map<number, number[]>();
    // The last file each name id was listed for, in all and in linked: a file's rows come together (they are written
    // together); a file met again after another is checked against its own list.
    const markAll = new Int32Array(names.length).fill(-1);
    const markLinked = new Int32Array(names.length).fill(-1);
    let lastFile = -1;
    let again = false;
    let allList: number[] = [];
    let linkedList: number[] | undefined;
    read((id, nameId, isLinked) => {
      if (id !== lastFile) {
        lastFile = id;
        const known = all.get(id);
        again = known !== undefined;
        if (!known) all.set(id, (allList = []));
        else allList = known;
        linkedList = linked.get(id);
      }
      if (again ? !allList.includes(nameId) : markAll[nameId] !== id) allList.push(nameId);
      markAll[nameId] = id;
      if (!isLinked) return;
      if (!linkedList) linked.set(id, (linkedList = []));
      if (again ? !linkedList.includes(nameId) : markLinked[nameId] !== id) linkedList.push(nameId);
      markLinked[nameId] = id;
    });
    this.addSymbolLists(names, all, linked);
    return { all, linked };
  }

  /**
   * Each file's distinct names (ids in `names`), and those of a kind that links files, in the order addSymbols()
   * made them: what it adds after reading, and what the serving facts saved (context/saved-facts.ts) give back.
   */
  addSymbolLists(names: ReadonlyArray<string | undefined>, all: Iterable<[number, ArrayLike<number>]>, linked: Iterable<[number, ArrayLike<number>]>): void {
    const counts = new Int32Array(names.length);
    const counted: number[] = [];
    // Loops rather than Array.from(list, fn): that was most of this function's time on typed arrays (2M ids).
    const named = (list: ArrayLike<number>): string[] => {
      const out = new Array<string>(list.length);
      for (let i = 0; i < list.length; i++) out[i] = names[list[i]!]!;
      return out;
    };
    for (const [id, list] of all) {
      this.names.set(id, named(list));
      for (let i = 0; i < list.length; i++) if (counts[list[i]!]!++ === 0) counted.push(list[i]!);
    }
    for (const n of counted) {
      const name = names[n]!;
      const before = this.definingFiles.get(name) ?? 0;
      this.definingFiles.set(name, before + counts[n]!);
      if (before === 0) this.created.add(name);
    }
    for (const [id, list] of linked) {
      const own = named(list);
      this.linkedNames.set(id, own);
      // A file's rows come once per commit (its old ones were removed first), so no id is listed twice.
      for (const name of own) {
        const files = this.definers.get(name);
        if (files === undefined) this.definers.set(name, id);
        else if (typeof files === 'number') this.definers.set(name, [files, id]);
        else files.push(id);
      }
    }
  }

  /** Uses of names already read, by files just added. */
  addUses(fileIds: number[]): void {
    this.dropUses();
    if (!this.users.size) return;
    for (let i = 0; i < fileIds.length; i += IN_LIST) {
      const part = fileIds.slice(i, i + IN_LIST);
      const rows = this.db.rows(`SELECT DISTINCT file_id, name FROM refs WHERE file_id IN (${part.map(() => '?').join(',')}) AND kind IN ${USE_KINDS}`, part);
      for (const [fileId, name] of rows) this.users.get(String(name))?.add(Number(fileId));
    }
  }

  /** Everything a file contributed; `many` when a large batch leaves (cached users are then dropped, not edited). */
  removeFile(id: number, many: boolean): void {
    this.dropUses();
    for (const name of this.names.get(id) ?? []) {
      const n = (this.definingFiles.get(name) ?? 0) - 1;
      if (n > 0) this.definingFiles.set(name, n);
      else {
        this.definingFiles.delete(name);
        this.dropped.add(name);
      }
    }
    for (const name of this.linkedNames.get(id) ?? []) {
      const files = this.definers.get(name);
      if (files === id) this.definers.delete(name);
      else if (typeof files === 'object') {
        const at = files.indexOf(id);
        if (at >= 0) files.splice(at, 1);
        if (files.length === 1) this.definers.set(name, files[0]!);
      }
    }
    this.names.delete(id);
    this.linkedNames.delete(id);
    if (many) this.users.clear();
    else for (const files of this.users.values()) files.delete(id);
  }

  /**
   * Reads every use of every name at once (a long-running host's warm-up), in steps with `pause()` between them; or,
   * given `saved` (pairs saved beside the index, context/saved-uses.ts), takes those: saved for the index as it is
   * now, or for an earlier version of it with the pairs of the files `changed` since read again (UseTable.fromSaved).
   * Until then, and after any commit, uses are read per file and per name as questions need them. Whether the table
   * is now held (false when a commit overtook the pass, or the saved pairs do not fit the index).
   */
  async loadUses(pause: () => Promise<void>, saved?: UsePairs, changed?: ReadonlySet<number>): Promise<boolean> {
    const at = this.changes;
    const table = saved
      ? UseTable.fromSaved(this.db, saved, changed && { files: changed, useKinds: USE_KIND_SCAN })
      : await UseTable.read(this.db, USE_KIND_SCAN, pause, () => this.changes === at);
    if (table && this.changes === at) this.uses = table;
    return this.uses !== undefined && this.uses === table;
  }

  /** The uses held (see loadUses), as pairs to save; undefined when not held. */
  get usePairs(): UsePairs | undefined {
    return this.uses?.pairs;
  }

  /** Whether every use is held in memory (loadUses() ran since the last change). */
  get usesLoaded(): boolean {
    return this.uses !== undefined;
  }

  private dropUses(): void {
    this.uses = undefined;
    this.changes++;
  }

  /** Distinct names in code point order (SQLite's order for names), for fuzzy matching; sorted on first use. */
  sortedNames(): string[] {
    return (this.sorted ??= [...this.definingFiles.keys()].sort(byCodePoint));
  }

  /** Brings the sorted names up to date after files came or went: only names that appeared or vanished move. */
  settle(): void {
    const sorted = this.sorted;
    if (sorted) {
      for (const name of this.dropped) if (!this.created.has(name)) sorted.splice(sortedIndex(sorted, name), 1);
      for (const name of this.created) if (!this.dropped.has(name)) sorted.splice(sortedIndex(sorted, name), 0, name);
    }
    this.created.clear();
    this.dropped.clear();
  }

  /** Names the file defines, any kind. */
  namesOf(fileId: number): readonly string[] {
    return this.names.get(fileId) ?? [];
  }

  /** Names the file defines as something other than a field or variable. */
  linkedNamesOf(fileId: number): readonly string[] {
    return this.linkedNames.get(fileId) ?? [];
  }

  /** Files defining `name` as something other than a field or variable, in the order they were added. */
  definersOf(name: string): readonly number[] {
    const files = this.definers.get(name);
    return files === undefined ? NONE : typeof files === 'number' ? [files] : files;
  }

  /**
   * Reads the users of the names not read yet in one statement per few hundred names (see usersOf). The names' ids
   * are looked up first and the uses read by id: a common name has thousands of users, and a name string made per row
   * cost more than the search.
   */
  readUsers(names: Iterable<string>): void {
    if (this.uses) return;
    const missing = [...new Set(names)].filter((n) => !this.users.has(n));
    for (let i = 0; i < missing.length; i += IN_LIST) {
      const part = missing.slice(i, i + IN_LIST);
      for (const name of part) this.users.set(name, new Set());
      const byId = new Map<number, Set<number>>();
      this.db.each(`SELECT id, name FROM ref_names WHERE name IN (${part.map(() => '?').join(',')})`, part, ([id, name]) => {
        byId.set(Number(id), this.users.get(String(name))!);
      });
      if (!byId.size) continue;
      const ids = [...byId.keys()];
      this.db.each(
        `SELECT DISTINCT name_id, file_id FROM ref_rows WHERE name_id IN (${ids.map(() => '?').join(',')}) AND kind IN ${USE_KIND_CODES}`, ids,
        ([nameId, fileId]) => byId.get(Number(nameId))!.add(Number(fileId)),
      );
    }
  }

  /**
   * The names a file uses (calls, names as a type, extends or implements), each once, in the order of their first
   * use: ids first, then their names, so that the name is made once per name rather than once per reference.
   */
  usedNames(fileId: number): string[] {
    if (this.uses) return this.uses.namesUsedBy(fileId);
    const ids: number[] = [];
    this.db.each(`SELECT DISTINCT name_id FROM ref_rows WHERE file_id = ? AND kind IN ${USE_KIND_CODES}`, [fileId], ([id]) => {
      ids.push(Number(id));
    });
    const names = new Map<number, string>();
    for (let i = 0; i < ids.length; i += IN_LIST) {
      const part = ids.slice(i, i + IN_LIST);
      this.db.each(`SELECT id, name FROM ref_names WHERE id IN (${part.map(() => '?').join(',')})`, part, ([id, name]) => {
        names.set(Number(id), String(name));
      });
    }
    return ids.flatMap((id) => { const name = names.get(id); return name === undefined ? [] : [name]; });
  }

  /** Files that use `name` (call it, name it as a type, extend or implement it). */
  usersOf(name: string): Iterable<number> {
    if (this.uses) return this.uses.usersOf(name);
    let files = this.users.get(name);
    if (!files) {
      files = new Set(this.db.rows(usersSql('?'), [name]).map((r) => Number(r[1])));
      this.users.set(name, files);
    }
    return files;
  }
}

const NONE: readonly number[] = [];

/** Per file, the ids of the distinct names it defines, all and those of a kind that links files (see addSymbols). */
export interface SymbolLists {
  all: Map<number, number[]>;
  linked: Map<number, number[]>;
}

/** Where `name` is, or goes, in a list sorted by code point. */
function sortedIndex(sorted: string[], name: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byCodePoint(sorted[mid]!, name) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
