/**
 * The serving facts (db-facts.ts: files, who defines each name, the chunk table, the resolved import links) saved
 * beside the index, so that a host opening an unchanged index reads them in one piece instead of 124k files, 2M
 * symbols, 2M chunk spans and their lengths and resolving 568k imports (~8 of its ~11 warm-up CPU-s at 124k files).
 * Like the use table (saved-uses.ts) it records the index version it was made from (store/index-version.ts): a host
 * takes it as it is for that version, and for a later version of the same index (a commit since) brings it up to
 * date with the files whose stamps changed (db-facts.ts warmFacts). Layout: core/column-file.ts; strings as
 * encodeStrings() writes them.
 */
import { decodeColumns, decodeStrings, encodeColumns, encodeStrings, type Column } from '../column-file';
import { sameIndex } from '../store/index-version';
import type { ChunkColumns } from './chunk-table';
import type { SavedLinks } from './import-links';

/** The sidecar's name (IndexStorage.readSidecar). */
export const FACTS_SIDECAR = 'facts';

const MAGIC = 'context-oracle serving facts\n';
/** Bump when the layout or the meaning of a column changes. */
const FORMAT = 1;

/** Offsets and values of one list per file, in the order the files were listed: `values[at[i]]` up to `values[at[i + 1]]`. */
export interface FileLists {
  files: Int32Array;
  at: Int32Array;
  values: Int32Array;
}

export interface SavedFacts {
  /** Every file in id order: its id, lines, chunk characters, language (index in `languages`), path and stamp. */
  files: { ids: Int32Array; lines: Float64Array; chars: Float64Array; language: Int32Array; languages: string[]; paths: string[]; stamps: string[] };
  /** Name id → name (ref_names), holes where an id has no name. */
  names: Array<string | undefined>;
  /** Each file's distinct names defined, all and those of a kind that links files (NameIndex.addSymbolLists). */
  defined: FileLists;
  linked: FileLists;
  chunks: ChunkColumns;
  links: SavedLinks;
}

interface Header {
  format: number;
  version: string;
}

type Strings = ReadonlyArray<string | undefined>;

/** The bytes, in parts to be written one after the other; undefined when a string would not read back as it is. */
export function encodeFacts(version: string, f: SavedFacts): Uint8Array[] | undefined {
  const columns: [string, Column][] = [];
  const strings = (name: string, list: Strings): boolean => {
    const encoded = encodeStrings(list);
    if (!encoded) return false;
    columns.push([`${name}.bytes`, encoded[0]], [`${name}.lengths`, encoded[1]]);
    return true;
  };
  const lists = (name: string, l: FileLists): void => {
    columns.push([`${name}.files`, l.files], [`${name}.at`, l.at], [`${name}.values`, l.values]);
  };
  const { files, chunks, links } = f;
  columns.push(['files.ids', files.ids], ['files.lines', files.lines], ['files.chars', files.chars], ['files.language', files.language]);
  if (!strings('files.languages', files.languages) || !strings('files.paths', files.paths) || !strings('files.stamps', files.stamps) || !strings('names', f.names)) return undefined;
  lists('defined', f.defined);
  lists('linked', f.linked);
  columns.push(['chunks.kind', chunks.kind], ['chunks.file', chunks.file], ['chunks.start', chunks.start], ['chunks.end', chunks.end], ['chunks.nameLen', chunks.nameLen], ['chunks.bodyLen', chunks.bodyLen], ['chunks.symbol', chunks.symbol]);
  if (!strings('chunks.texts', chunks.texts) || !strings('chunks.kinds', chunks.kinds)) return undefined;
  columns.push(['links.from', links.from], ['links.at', links.at], ['links.to', links.to]);
  return encodeColumns(MAGIC, { format: FORMAT, version } satisfies Header, columns);
}

/** Saved facts and the index version they were saved for. */
export interface FactsOfVersion {
  version: string;
  facts: SavedFacts;
}

/**
 * The facts saved for index version `version` or another version of the same index (sameIndex); undefined when the
 * bytes are of another index or format. Throws on bytes that are not whole saved facts (the caller logs that and
 * reads the index instead).
 */
export function decodeFacts(bytes: Uint8Array, version: string): FactsOfVersion | undefined {
  const file = decodeColumns<Header>(bytes, MAGIC, 'saved serving facts', (h) => h.format === FORMAT && sameIndex(h.version, version));
  if (!file) return undefined;
  const column = <T extends Column>(name: string, type: new (n: number) => T): T => {
    const c = file.columns.get(name);
    if (!(c instanceof type)) throw new Error(`saved serving facts without their column ${name}`);
    return c;
  };
  const i32 = (name: string): Int32Array => column(name, Int32Array);
  const strings = (name: string): Array<string | undefined> => decodeStrings(column(`${name}.bytes`, Uint8Array), i32(`${name}.lengths`), `saved serving facts' ${name}`);
  const whole = (name: string): string[] => {
    const list = strings(name);
    for (let i = 0; i < list.length; i++) if (list[i] === undefined) throw new Error(`saved serving facts' ${name} has a hole`);
    return list as string[];
  };
  const lists = (name: string): FileLists => ({ files: i32(`${name}.files`), at: i32(`${name}.at`), values: i32(`${name}.values`) });
  const facts: SavedFacts = {
    files: {
      ids: i32('files.ids'), lines: column('files.lines', Float64Array), chars: column('files.chars', Float64Array), language: i32('files.language'),
      languages: whole('files.languages'), paths: whole('files.paths'), stamps: whole('files.stamps'),
    },
    names: strings('names'),
    defined: lists('defined'),
    linked: lists('linked'),
    chunks: {
      kind: column('chunks.kind', Uint16Array), file: i32('chunks.file'), start: i32('chunks.start'), end: i32('chunks.end'),
      nameLen: i32('chunks.nameLen'), bodyLen: i32('chunks.bodyLen'), symbol: i32('chunks.symbol'), texts: whole('chunks.texts'), kinds: whole('chunks.kinds'),
    },
    links: { from: i32('links.from'), at: i32('links.at'), to: i32('links.to') },
  };
  const { files } = facts;
  const n = files.ids.length;
  if ([files.lines, files.chars, files.language, files.paths, files.stamps].some((c) => c.length !== n)) throw new Error('saved serving facts: file columns of different lengths');
  for (let i = 0; i < n; i++) if (files.language[i]! < 0 || files.language[i]! >= files.languages.length) throw new Error('saved serving facts: a file of no known language');
  return { version: file.header.version, facts };
}

/** The lists as [file, ids] pairs; throws when the offsets or a name id do not fit (`names`: how many name ids). */
export function* eachList(l: FileLists, names: Strings): Generator<[number, Int32Array]> {
  if (l.at.length !== l.files.length + 1 || l.at[0] !== 0 || l.at[l.files.length] !== l.values.length) throw new Error('saved serving facts: name lists are not whole');
  for (let i = 0; i < l.files.length; i++) {
    const from = l.at[i]!;
    const to = l.at[i + 1]!;
    if (to < from) throw new Error('saved serving facts: name lists out of order');
    const ids = l.values.subarray(from, to);
    for (let j = 0; j < ids.length; j++) if (names[ids[j]!] === undefined) throw new Error(`saved serving facts: name id ${ids[j]} not in the index`);
    yield [l.files[i]!, ids];
  }
}

/** Lists by file (Map order) as saved columns. */
export function fileLists(lists: Map<number, number[]>): FileLists {
  const files = new Int32Array(lists.size);
  const at = new Int32Array(lists.size + 1);
  let total = 0;
  for (const list of lists.values()) total += list.length;
  const values = new Int32Array(total);
  let i = 0;
  for (const [file, list] of lists) {
    files[i] = file;
    values.set(list, at[i]!);
    at[i + 1] = at[i]! + list.length;
    i++;
  }
  return { files, at, values };
}
