/**
 * Every file's definitions (the map's tags) in columns. As one object per definition, the 1.8M tags at 100k files
 * held ~170 MB for as long as the graph was cached, and reading a saved graph back made them all again; the map
 * shows a few hundred, so objects are made for the files it looks at (`of`), and a few thousand files' are kept.
 */
import type { MapTag } from './types';

/** Files whose tag objects are kept; past it the kept ones are dropped (the map reads a few hundred files). */
const KEPT_FILES = 4096;

export class TagTable {
  private readonly made = new Map<number, MapTag[]>();

  constructor(
    /** Per file, where its tags start in the columns (one more entry than files: the end). */
    readonly start: Int32Array,
    /** The symbol's row id in the index. */
    readonly id: Float64Array,
    /** The name as its identifier's number in `names` (the ident graph's: every tag's name is defined there). */
    readonly name: Int32Array,
    /** The kind as its place in `kinds`. */
    readonly kind: Int32Array,
    readonly line: Int32Array,
    /** Index (in its file's tags) of the enclosing definition, -1 for none. */
    readonly parent: Int32Array,
    readonly names: readonly string[],
    readonly kinds: readonly string[],
  ) {}

  /** A table of `files` files without tags. */
  static empty(files: number): TagTable {
    return new TagTable(new Int32Array(files + 1), new Float64Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0), [], []);
  }

  /** Tags of all files. */
  get size(): number {
    return this.start[this.start.length - 1]!;
  }

  /** How many tags `file` has. */
  count(file: number): number {
    return this.start[file + 1]! - this.start[file]!;
  }

  /** The tags of `file`, sorted by line. */
  of(file: number): MapTag[] {
    let list = this.made.get(file);
    if (list) return list;
    if (this.made.size >= KEPT_FILES) this.made.clear();
    const from = this.start[file]!;
    list = new Array<MapTag>(this.count(file));
    for (let i = 0; i < list.length; i++) {
      const k = from + i;
      // Every field in the literal, `parent` too: one added later would cost each tag a separate property store.
      list[i] = { id: this.id[k]!, name: this.names[this.name[k]!]!, kind: this.kinds[this.kind[k]!]!, line: this.line[k]!, parent: this.parent[k]! < 0 ? undefined : this.parent[k]!, index: i };
    }
    this.made.set(file, list);
    return list;
  }
}
