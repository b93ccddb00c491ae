/**
 * The repo map's graph saved beside the index, so a new process (a CLI `map`, a restarted server) draws the map
 * without re-reading every symbol and reference count: at 100k files that read was most of a map's time. The snapshot
 * holds the MapData (with each file's part of it, MapSources) and, once computed, the unpersonalised ranking; it
 * records the index version it was made from (meta created_at and updated_at, which every index run that changes
 * anything moves): a snapshot of the same version is used as it is, one of an earlier version of the same index is
 * patched (map-data.ts), one of another format is never used. Layout: core/column-file.ts, the header holding the
 * version and the strings.
 */
import { type Column, decodeColumns, encodeColumns } from '../column-file';
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

interface Header {
  format: number;
  version: string;
  files: string[];
  fileStamps: string[];
  lastNameId: number;
  names: string[];
  kinds: string[];
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
  };
  return encodeColumns(MAGIC, header, columns);
}

/**
 * The snapshot in `bytes` (its graph's `version` is the index version it was made from); undefined when it is in
 * another format. Throws on bytes that are not a whole snapshot (the caller logs that and rebuilds).
 */
export function decodeMapSnapshot(bytes: Uint8Array): MapSnapshot | undefined {
  const file = decodeColumns<Header>(bytes, MAGIC, 'map snapshot', (h) => h.format === FORMAT);
  if (!file) return undefined;
  const { header, columns: cols } = file;
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
