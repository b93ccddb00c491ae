/** DTOs and internal shapes of the repo map. */
import type { IdentGraph } from './ident-graph';
import type { TagTable } from './tag-table';

export interface RepoMapOptions {
  /** Token budget for `text` (default 1,024); the map never exceeds it. */
  maxTokens?: number;
  /** Only files under this workspace-relative directory are shown (ranking still uses the whole graph). */
  scope?: string;
  /** Files the question mentions: ranked as if the reader cares about them. */
  mentionedFiles?: string[];
  /** Identifiers the question mentions: edges through them weigh more, files named like them are favoured. */
  mentionedIdents?: string[];
}

export interface RepoMapSliceOptions {
  maxTokens?: number;
  mentionedIdents?: string[];
}

export interface RepoMapSymbol {
  name: string;
  qualifiedName: string;
  kind: string;
  line: number;
  signature: string;
}

export interface RepoMapFile {
  path: string;
  /** PageRank of the file (personalised when the request mentions something), rounded. */
  rank: number;
  symbols: RepoMapSymbol[];
}

export interface RepoMap {
  /** The rendered map: file → signatures, `⋮` where definitions are left out. */
  text: string;
  tokens: number;
  maxTokens: number;
  scope?: string;
  /** Files in the map, most important first. */
  files: RepoMapFile[];
  stats: {
    filesIndexed: number;
    definitions: number;
    /** Ranked entries that were candidates (definitions plus tagless files, after scope). */
    candidates: number;
    shown: number;
    /** The index version the graph was built from (the cache key). */
    indexVersion: string;
    /** Whether the graph came from a cache: this process's, or the one saved beside the index (map-snapshot.ts). */
    graphCached: boolean;
    /** Time to build the map, and the part of it spent loading the graph (0 when this process had it already). */
    elapsedMs: number;
    graphMs: number;
  };
}

/** One definition as the map knows it. */
export interface MapTag {
  /** The symbol's row id in the index. */
  id: number;
  name: string;
  kind: string;
  line: number;
  /** Index (in its file's tag list) of the enclosing definition, for container headers. */
  parent: number | undefined;
  /** Position in its file's tag list (sorted by line). */
  index: number;
}

/** What the map prints of a definition it shows, fetched for those only (see loadDetails). */
export interface TagDetail {
  qualifiedName: string;
  signature: string;
}

/** The identifier graph of the whole index: built once per index version. */
export interface MapData {
  version: string;
  files: string[];
  /** Per file, how much its definitions count: tests and peripheral code (examples, benchmarks) rank lower. */
  fileWeight: Float64Array;
  /** Per file, its definitions sorted by line. */
  tags: TagTable;
  /** Who defines and who references each identifier. */
  idents: IdentGraph;
  /** Symbol id → qualified name and signature, filled for the tags a map shows. */
  details: Map<number, TagDetail>;
  /**
   * Per file, its place among the paths in `localeCompare` order (paths the collator finds equal share one): ranks
   * tie by path, and at scale (copies of a tree rank alike) the collation per comparison cost more than the ranking.
   */
  pathOrder: Int32Array;
  /** What each file contributed, so the graph of a later version of the index is patched (map-data.ts). */
  sources: MapSources;
}

/** Per file (in MapData.files order), where its part of the graph came from in the index; and the identifiers' name ids. */
export interface MapSources {
  /** Its row id in the index. */
  fileIds: Int32Array;
  /** Its version there (indexed_at and content hash): a rewrite of the file's rows changes it, even under the same id. */
  fileStamps: string[];
  /**
   * Every name it references (ids in ref_names, which only grows) and how often, defined by some file or not (a
   * later version may define it): `refNames`/`refCounts` from `refStart[f]` up to `refStart[f + 1]`.
   */
  refStart: Int32Array;
  refNames: Int32Array;
  refCounts: Int32Array;
  /** Per identifier (MapData.idents), its id in ref_names; -1 when no file references that name. */
  nameIds: Int32Array;
  /** The last ref_names id when the graph was read: rows added later are names referenced since. */
  lastNameId: number;
  /** Files whose rows were read from the index for this version; the others' parts came from an earlier graph. */
  reread: number;
}
