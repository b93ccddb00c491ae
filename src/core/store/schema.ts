/** The index schema. Bump SCHEMA_VERSION on any change: a mismatched index is rebuilt, never migrated. */
import type { ReferenceKind, SymbolKind } from '../parse/types';

export const SCHEMA_VERSION = 7;

/** Reference kinds as stored in ref_rows.kind; the most common first (0 and 1 take no bytes in a SQLite record). */
export const REFERENCE_KIND_CODES: readonly ReferenceKind[] = ['call', 'type', 'class', 'implementation', 'import', 'other'];

/** Symbol kinds as stored in symbol_rows.kind, the most common first (counted on a 9,500-file workspace). */
export const SYMBOL_KIND_CODES: readonly SymbolKind[] = [
  'method', 'function', 'field', 'constant', 'class', 'type', 'struct', 'variable', 'module', 'macro', 'interface', 'enum',
  'trait', 'object', 'protocol', 'other',
];

const caseOf = (column: string, codes: readonly string[]) => `CASE ${column} ${codes.map((k, i) => `WHEN ${i} THEN '${k}'`).join(' ')} END`;
const KIND_CASE = caseOf('r.kind', REFERENCE_KIND_CODES);
/** A symbol's qualified name is its container's and its own joined by '.' (parse/extract.ts), so it is not stored. */
const qualifiedOf = (s: string, n: string) => `CASE WHEN ${s}.container IS NULL THEN ${n}.name ELSE ${s}.container || '.' || ${n}.name END`;

// Sizes shaped this (measured on a 9,500-file workspace): code text is kept once per content, deflated
// (file_texts), and chunks keep only their span (chunk_spans; store/chunk-texts.ts rebuilds the text); the full-text
// postings keep no text and no positions; references name their caller by symbol row and their name by an interned
// id, and are clustered by file, so neither a file index nor repeated strings are needed. Symbols keep their name as
// the same interned id, their kind as a code, and neither a qualified name nor a doc comment (both follow from what is
// kept): an 8,275-file tree's index 127.4 -> 116.7 MiB; the 124k-file corpus's 1,737 -> 1,495 MB (README). The views
// `symbols`, `chunks` and `refs` give readers the columns they had when those were tables.
export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT NOT NULL, size INTEGER NOT NULL,
  mtime REAL NOT NULL, hash TEXT NOT NULL, lines INTEGER NOT NULL, has_errors INTEGER NOT NULL DEFAULT 0,
  annotations TEXT, indexed_at INTEGER NOT NULL,
  -- Characters in all of the file's chunk texts together (a length the ranking normalises by).
  chunk_chars INTEGER NOT NULL DEFAULT 0,
  text_id INTEGER NOT NULL
);
CREATE INDEX files_text ON files(text_id);
-- The texts files were indexed from, packed by parse/file-content.ts, once per distinct content (digest: SHA-1 of the
-- packed bytes), apart from files so scans of files stay small. A text no file uses any more is deleted with it.
-- AUTOINCREMENT: an id always means one content (readers cache unpacked texts by id).
CREATE TABLE file_texts (id INTEGER PRIMARY KEY AUTOINCREMENT, digest BLOB NOT NULL UNIQUE, content BLOB NOT NULL);
-- Names of symbols and of references, interned once (a name repeats across thousands of files); lower(name) answers
-- case-insensitive lookups of symbols by name, so symbols need one index by name id instead of two by name text.
CREATE TABLE ref_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE INDEX ref_names_lower ON ref_names(lower(name));
-- The view symbols gives readers the columns: name from ref_names, kind as text (SYMBOL_KIND_CODES), qualified_name
-- from container and name. A doc comment is rebuilt from the file's text (parse/symbol-doc.ts), never stored.
CREATE TABLE symbol_rows (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name_id INTEGER NOT NULL, kind INTEGER NOT NULL, container TEXT,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, name_line INTEGER NOT NULL, name_col INTEGER NOT NULL,
  name_end_col INTEGER NOT NULL, signature TEXT NOT NULL
);
CREATE INDEX symbols_name ON symbol_rows(name_id);
CREATE INDEX symbols_file ON symbol_rows(file_id);
CREATE VIEW symbols AS
  SELECT s.id AS id, s.file_id AS file_id, n.name AS name, ${qualifiedOf('s', 'n')} AS qualified_name,
    ${caseOf('s.kind', SYMBOL_KIND_CODES)} AS kind, s.container AS container, s.line_start AS line_start,
    s.line_end AS line_end, s.name_line AS name_line, s.name_col AS name_col, s.name_end_col AS name_end_col,
    s.signature AS signature
  FROM symbol_rows s JOIN ref_names n ON n.id = s.name_id;
-- seq = the reference's place in its file, so (file_id, seq) is the order references were extracted in.
CREATE TABLE ref_rows (
  file_id INTEGER NOT NULL, seq INTEGER NOT NULL, name_id INTEGER NOT NULL, kind INTEGER NOT NULL,
  line INTEGER NOT NULL, col INTEGER NOT NULL, end_col INTEGER NOT NULL, caller_id INTEGER,
  PRIMARY KEY (file_id, seq)
) WITHOUT ROWID;
-- (name_id, kind): "which files use this name" is answered from the index alone, without a lookup of each row for its
-- kind (a common name has thousands of references: a cold question spent ~20 ms per name batch on those lookups).
CREATE INDEX ref_rows_name ON ref_rows(name_id, kind);
-- How often each file references each name, kept with ref_rows on every write (store/ref-counts.ts): the repo map's
-- graph reads these pairs, about a seventh as many rows, instead of stepping every reference.
CREATE TABLE ref_counts (file_id INTEGER NOT NULL, name_id INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (file_id, name_id)) WITHOUT ROWID;
-- in_symbol is a subquery, not a join, so that a query not asking for it does not pay a lookup per row.
CREATE VIEW refs AS
  SELECT r.file_id AS file_id, n.name AS name, ${KIND_CASE} AS kind, r.line AS line, r.col AS col, r.end_col AS end_col,
    (SELECT ${qualifiedOf('s', 'sn')} FROM symbol_rows s JOIN ref_names sn ON sn.id = s.name_id WHERE s.id = r.caller_id) AS in_symbol
  FROM ref_rows r JOIN ref_names n ON n.id = r.name_id;
CREATE TABLE imports (file_id INTEGER NOT NULL, source TEXT NOT NULL, names TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX imports_file ON imports(file_id);
CREATE TABLE annotations (file_id INTEGER NOT NULL, symbol_id INTEGER, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX annotations_kv ON annotations(key, value);
CREATE INDEX annotations_file ON annotations(file_id);
-- A chunk is a symbol's (symbol_id) or a window of top-level lines (symbol_id NULL); its text follows from the file's
-- text and symbols (parse/chunk-text.ts). AUTOINCREMENT: an id is never reused, because the postings may still hold
-- a removed chunk's id (postings-writer.ts relies on ids growing).
CREATE TABLE chunk_spans (
  id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, symbol_id INTEGER,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL
);
CREATE INDEX chunk_spans_file ON chunk_spans(file_id);
-- Joined to symbol_rows, not to the view symbols: a join on the right of a LEFT JOIN is not flattened by SQLite.
CREATE VIEW chunks AS
  SELECT c.id AS id, c.file_id AS file_id, ${qualifiedOf('s', 'n')} AS symbol,
    coalesce(${caseOf('s.kind', SYMBOL_KIND_CODES)}, 'file') AS kind,
    c.line_start AS line_start, c.line_end AS line_end, s.container AS container, s.signature AS signature
  FROM chunk_spans c LEFT JOIN symbol_rows s ON s.id = c.symbol_id LEFT JOIN ref_names n ON n.id = s.name_id;
-- Full-text postings (store/postings-writer.ts writes them, store/postings.ts reads them; nothing else touches these
-- tables): per segment and term, the chunks holding the term with their hits per column (name, path, body), in the
-- format of store/postings-codec.ts. Keyed by segment first, so a write appends; a term is read from each segment.
CREATE TABLE postings (seg INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (seg, term)) WITHOUT ROWID;
CREATE TABLE postings_segs (seg INTEGER PRIMARY KEY, level INTEGER NOT NULL);
-- Each live chunk's length in tokens per column (BM25's length normalisation).
CREATE TABLE chunk_sizes (id INTEGER PRIMARY KEY, name INTEGER NOT NULL, path INTEGER NOT NULL, body INTEGER NOT NULL);
-- Removed chunks whose postings are still held (until compaction), with their column texts for phrase queries.
CREATE TABLE dead_chunks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, body TEXT NOT NULL);
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
