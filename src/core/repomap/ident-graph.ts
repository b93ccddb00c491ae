/**
 * Who defines and who references each identifier, as numbered identifiers over flat integer columns. As a Map of
 * definer arrays plus two Maps of per-identifier (and per-file) count Maps it held ~27 MB at 10k files: one small
 * collection per identifier, and the counts twice. The columns take a few MB and keep every order the Maps had
 * (identifiers in first-definition order, each one's referencers in the order the references were read), so ranks
 * are summed in the same order and come out the same.
 */

export interface IdentGraph {
  /** Identifiers some file defines, in the order first defined. */
  readonly names: readonly string[];
  /** Identifier → its number (position in `names`). */
  readonly index: ReadonlyMap<string, number>;
  /** Files defining identifier i: `defFiles[defStart[i]]` up to `defFiles[defStart[i + 1]]`, each file once. */
  readonly defStart: Int32Array;
  readonly defFiles: Int32Array;
  /** Files referencing identifier i and how often: `refFiles`/`refCounts` from `refStart[i]` up to `refStart[i + 1]`. */
  readonly refStart: Int32Array;
  readonly refFiles: Int32Array;
  readonly refCounts: Int32Array;
}

/**
 * Collects definitions in the order they should be kept; `build()` packs them with the references. References are
 * not collected: at 100k files there are ~5M (file, identifier) pairs, and growing columns for them (keys, files and
 * counts, each doubled as it filled) cost ~130 MB at the map build's peak; counted first, they are placed straight
 * into columns of their final size.
 */
export class IdentGraphBuilder {
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly defs = new Pairs();
  /** Last file recorded per identifier, so a file defining a name twice is listed once. */
  private lastDefiner: number[] = [];

  /** Identifier number of `name`, or undefined when no file defines it. */
  identOf(name: string): number | undefined {
    return this.index.get(name);
  }

  /** Identifiers defined so far, in the order first defined (numbered by position). */
  definedNames(): readonly string[] {
    return this.names;
  }

  /** Records that `file` defines `name`; its identifier number. */
  define(name: string, file: number): number {
    let ident = this.index.get(name);
    if (ident === undefined) {
      ident = this.names.length;
      this.names.push(name);
      this.index.set(name, ident);
      this.lastDefiner.push(-1);
    }
    if (this.lastDefiner[ident] === file) return ident;
    this.lastDefiner[ident] = file;
    this.defs.push(ident, file);
    return ident;
  }

  /**
   * The graph, with the references `eachReference` emits: `file` references defined identifier `ident` `count` times,
   * each (ident, file) pair once, in the order they should be kept. It is called twice (to count, then to place) and
   * must emit the same references in the same order both times.
   */
  build(eachReference: (emit: (ident: number, file: number, count: number) => void) => void): IdentGraph {
    const n = this.names.length;
    this.lastDefiner = [];
    const [defStart, defFiles] = this.defs.grouped(n);
    const refStart = new Int32Array(n + 1);
    eachReference((ident) => { refStart[ident + 1]!++; });
    for (let i = 0; i < n; i++) refStart[i + 1]! += refStart[i]!;
    const refFiles = new Int32Array(refStart[n]!);
    const refCounts = new Int32Array(refStart[n]!);
    const at = refStart.slice(0, n);
    eachReference((ident, file, count) => {
      const k = at[ident]!++;
      refFiles[k] = file;
      refCounts[k] = count;
    });
    return { names: this.names, index: this.index, defStart, defFiles, refStart, refFiles, refCounts };
  }
}

/** Definers of identifier `ident`. */
export function definersOf(g: IdentGraph, ident: number): Int32Array {
  return g.defFiles.subarray(g.defStart[ident]!, g.defStart[ident + 1]!);
}

/** A growable list of (key, value) integer pairs, grouped by key on demand. */
class Pairs {
  private keys = new Int32Array(1024);
  private values = new Int32Array(1024);
  private size = 0;

  push(key: number, value: number): void {
    if (this.size === this.keys.length) {
      const keys = new Int32Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const values = new Int32Array(this.size * 2);
      values.set(this.values);
      this.values = values;
    }
    this.keys[this.size] = key;
    this.values[this.size++] = value;
  }

  /** Start offsets per key (length keyCount + 1) and the values grouped by key, in push order within a key. */
  grouped(keyCount: number): [Int32Array, Int32Array] {
    const start = new Int32Array(keyCount + 1);
    for (let i = 0; i < this.size; i++) start[this.keys[i]! + 1]!++;
    for (let k = 0; k < keyCount; k++) start[k + 1]! += start[k]!;
    const at = start.slice(0, keyCount);
    const out = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) out[at[this.keys[i]!]!++] = this.values[i]!;
    return [start, out];
  }
}
