/**
 * The repo map's graph saved beside the index, so a new process (a CLI `map`, a restarted server) draws the map
 * without re-reading every symbol and reference count: at 100k files that read was most of a map's time. The snapshot
 * holds the MapData (with each file's part of it, MapSources) and, once computed, the unpersonalised ranking; it
 * records the index version it was made from (meta created_at and updated_at, which every index run that changes
 * anything moves): a snapshot of the same version is used as it is, one of an earlier version of the same index is
 * patched (map-data.ts), one of another format is never used. Layout: a magic line, a JSON header (version, strings,
 * column lengths), then the columns as raw little-endian bytes, each at a multiple of 8.
 */
import type { IdentGraph } from './ident-graph';
import type { RankOutput } from './rank';
import { TagTable } from './tag-table';
import type { MapData } from './types';

const MAGIC = 'context-oracle map snapshot\n';
/** Bump when the layout or the meaning of a column changes. */
const FORMAT = 2;

export interface MapSnapshot {
  data: MapData;
  baseline?: RankOutput;
}

type Column = Int32Array | Float64Array;

interface Header {
  format: number;
  version: string;
  files: string[];
  fileStamps: string[];
  lastNameId: number;
  names: string[];
  kinds: string[];
  /** Column name → [type, length], in the order the columns follow the header. */
  columns: [string, 'i32' | 'f64', number][];
}

/**
 * The snapshot's bytes, in parts to be written one after the other (the columns are views of the graph's own, not
 * copied: one buffer of the whole snapshot was ~130 MB at 100k files, on top of the graph); undefined when it cannot
 * be represented (a symbol id beyond 2^31).
 */
export function encodeMapSnapshot({ data, baseline }: MapSnapshot): Uint8Array[] | undefined {
  const g = data.idents;
  const tags = data.tags;
  const perFile = new Int32Array(data.files.length);
  for (let f = 0; f < perFile.length; f++) perFile[f] = tags.count(f);
  const id = new Int32Array(tags.size);
  for (let k = 0; k < id.length; k++) {
    if (tags.id[k]! > 0x7fffffff) return undefined;
    id[k] = tags.id[k]!;
  }
  const columns: [string, Column][] = [
    ['fileWeight', data.fileWeight], ['pathOrder', data.pathOrder],
    ['tagsPerFile', perFile], ['tagId', id], ['tagName', tags.name], ['tagKind', tags.kind], ['tagLine', tags.line], ['tagParent', tags.parent],
    ['defStart', g.defStart], ['defFiles', g.defFiles], ['refStart', g.refStart], ['refFiles', g.refFiles], ['refCounts', g.refCounts],
    ['fileId', data.sources.fileIds], ['fileRefStart', data.sources.refStart], ['fileRefNames', data.sources.refNames], ['fileRefCounts', data.sources.refCounts],
    ['nameId', data.sources.nameIds],
  ];
  if (baseline) {
    columns.push(['fileRank', baseline.fileRank], ['rankFile', baseline.definitions.file], ['rankIdent', baseline.definitions.ident],
      ['rankValue', baseline.definitions.rank]);
  }
  const header: Header = {
    format: FORMAT, version: data.version, files: data.files, fileStamps: data.sources.fileStamps, lastNameId: data.sources.lastNameId, names: [...g.names], kinds: [...tags.kinds],
    columns: columns.map(([n, c]) => [n, c instanceof Float64Array ? 'f64' : 'i32', c.length]),
  };
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify(header)}\n`);
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
 * The snapshot in `bytes` (its graph's `version` is the index version it was made from); undefined when it is in
 * another format. Throws on bytes that are not a whole snapshot (the caller logs that and rebuilds).
 */
export function decodeMapSnapshot(bytes: Uint8Array): MapSnapshot | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headLength = view.getUint32(0, true);
  const head = new TextDecoder().decode(bytes.subarray(4, 4 + headLength));
  if (!head.startsWith(MAGIC)) throw new Error('not a map snapshot');
  const header = JSON.parse(head.slice(MAGIC.length)) as Header;
  if (header.format !== FORMAT) return undefined;
  const cols = new Map<string, Column>();
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  let at = align(4 + headLength);
  for (const [n, type, length] of header.columns) {
    const width = type === 'f64' ? 8 : 4;
    if (at + length * width > bytes.length) throw new Error(`map snapshot cut short in column ${n}`);
    // A view of the file's bytes when they are a buffer of their own (the file read whole) and the column sits
    // aligned in it: copies of the columns were ~110 MB at 100k files on top of the file's 130 MB, for the price of
    // keeping the header's bytes (~17 MB) as long as the graph. Otherwise a copy, so that a larger buffer the bytes
    // are part of is not kept alive (a Node Buffer's slice() is a view, so the copy is made by the constructor).
    const offset = bytes.byteOffset + at;
    const raw = own && offset % width === 0 ? { buffer: bytes.buffer, offset } : { buffer: new Uint8Array(bytes.subarray(at, at + length * width)).buffer, offset: 0 };
    cols.set(n, type === 'f64' ? new Float64Array(raw.buffer, raw.offset, length) : new Int32Array(raw.buffer, raw.offset, length));
    at = align(at + length * width);
  }
  const col = <T extends Column>(n: string): T => {
    const c = cols.get(n);
    if (!c) throw new Error(`map snapshot without column ${n}`);
    return c as T;
  };
  const names = header.names;
  const idents: IdentGraph = {
    names, index: new Map(names.map((s, i) => [s, i])),
    defStart: col('defStart'), defFiles: col('defFiles'), refStart: col('refStart'), refFiles: col('refFiles'), refCounts: col('refCounts'),
  };
  const perFile = col<Int32Array>('tagsPerFile');
  const start = new Int32Array(perFile.length + 1);
  for (let f = 0; f < perFile.length; f++) start[f + 1] = start[f]! + perFile[f]!;
  const tags = new TagTable(start, Float64Array.from(col<Int32Array>('tagId')), col('tagName'), col('tagKind'), col('tagLine'), col('tagParent'), names, header.kinds);
  const data: MapData = {
    version: header.version, files: header.files, fileWeight: col('fileWeight'), tags, idents, details: new Map(), pathOrder: col('pathOrder'),
    sources: {
      fileIds: col('fileId'), fileStamps: header.fileStamps, refStart: col('fileRefStart'), refNames: col('fileRefNames'), refCounts: col('fileRefCounts'), nameIds: col('nameId'),
      lastNameId: header.lastNameId, reread: 0,
    },
  };
  const baseline: RankOutput | undefined = cols.has('fileRank')
    ? { fileRank: col('fileRank'), definitions: { file: col('rankFile'), ident: col('rankIdent'), rank: col('rankValue') } }
    : undefined;
  return baseline ? { data, baseline } : { data };
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}
