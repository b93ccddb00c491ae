/** The index schema. Bump SCHEMA_VERSION on any change: a mismatched index is rebuilt, never migrated. */
export const SCHEMA_VERSION = 2;

export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT NOT NULL, size INTEGER NOT NULL,
  mtime REAL NOT NULL, hash TEXT NOT NULL, lines INTEGER NOT NULL, has_errors INTEGER NOT NULL DEFAULT 0,
  annotations TEXT, indexed_at INTEGER NOT NULL
);
CREATE TABLE symbols (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL,
  kind TEXT NOT NULL, container TEXT, line_start INTEGER NOT NULL, line_end INTEGER NOT NULL,
  name_line INTEGER NOT NULL, name_col INTEGER NOT NULL, name_end_col INTEGER NOT NULL,
  signature TEXT NOT NULL, doc TEXT
);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_lname ON symbols(lower(name));
CREATE INDEX symbols_qname ON symbols(qualified_name);
CREATE INDEX symbols_file ON symbols(file_id);
CREATE TABLE refs (
  file_id INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, line INTEGER NOT NULL,
  col INTEGER NOT NULL, end_col INTEGER NOT NULL, in_symbol TEXT
);
CREATE INDEX refs_name ON refs(name);
CREATE INDEX refs_file ON refs(file_id);
CREATE TABLE imports (file_id INTEGER NOT NULL, source TEXT NOT NULL, names TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX imports_file ON imports(file_id);
CREATE TABLE annotations (file_id INTEGER NOT NULL, symbol_id INTEGER, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX annotations_kv ON annotations(key, value);
CREATE INDEX annotations_file ON annotations(file_id);
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, symbol TEXT, kind TEXT NOT NULL,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, container TEXT, signature TEXT, text TEXT NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id);
-- Identifier-split text per chunk; docid = chunks.id. FTS4 because stock sql.js has no FTS5; ranked with bm25().
CREATE VIRTUAL TABLE chunks_fts USING fts4(name, path, body, tokenize=simple);
CREATE TABLE skips (path TEXT PRIMARY KEY, reason TEXT NOT NULL, detail TEXT);
-- L2 context-bundle cache (src/core/bundle/cache.ts). key = focus ids + limits; stamp = graph/docs/code fingerprint
-- the bundle was built from; a row whose stamp no longer matches is a miss. A full reindex starts an empty table.
CREATE TABLE bundle_cache (
  key TEXT PRIMARY KEY, focus TEXT NOT NULL, stamp TEXT NOT NULL, etag TEXT NOT NULL, bundle TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
`;

/** Column weights for bm25(): a hit in a symbol name counts more than one in its path, more than one in its body. */
export const FTS_WEIGHTS = { name: 4.0, path: 2.0, body: 1.0 } as const;
