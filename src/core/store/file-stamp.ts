/**
 * A file's version as the index records it, `indexed_at:hash`: a rewrite changes it even when it keeps the file's id.
 * The serving facts (context/db-facts.ts) and the repo map's parts (repomap/map-data.ts) compare files by it, read
 * with this one SQL expression over the files table.
 */
export const FILE_STAMP_SQL = "indexed_at || ':' || hash";
