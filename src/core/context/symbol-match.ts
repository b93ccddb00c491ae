/**
 * The symbol-name path: entities from the question looked up among the index's definitions. Exact and qualified
 * matches count most, then a case-folded match, a suffix/partial match, and last a fuzzy one (an edit or two away).
 * A name defined in many places says little about any one of them, so the weight spreads over its definitions.
 */
import { distance } from 'fastest-levenshtein';
import { CHUNK_MAX_LINES } from '../parse/chunk-text';
import { indexedLines } from '../store/chunk-texts';
import type { SqlValue } from 'sql.js';
import type { IndexDatabase, Row } from '../store/database';
import { termPostings } from '../store/postings';
import { escapeRegExp } from '../strings';
import type { DbFacts } from './db-facts';
import type { ExtractedEntity } from './types';

export type MatchHow = 'exact' | 'qualified' | 'case' | 'partial' | 'fuzzy';

export interface SymbolMatch {
  symbolId: number;
  fileId: number;
  name: string;
  qualifiedName: string;
  kind: string;
  container?: string;
  lineStart: number;
  lineEnd: number;
  nameLine: number;
  entity: string;
  entityKind: ExtractedEntity['kind'];
  how: MatchHow;
  /** 0..1: match quality × entity confidence, spread over the entity's definitions. */
  quality: number;
}

// On the development set a code-like mention that exactly names a definition pointed at the right file about half
// the time; case-folded, partial and fuzzy matches only a tenth as often or less: they stay as weak hints.
const HOW_QUALITY: Record<MatchHow, number> = { exact: 1, qualified: 1, case: 0.4, partial: 0.15, fuzzy: 0.25 };
/** Definitions kept per entity; a name with more is too common to point anywhere. */
const MAX_PER_ENTITY = 12;
const COLUMNS = 's.id, s.file_id, s.name, s.qualified_name, s.kind, s.container, s.line_start, s.line_end, s.name_line';

/**
 * A row of COLUMNS, as an array: a common word names thousands of definitions at scale, and an object per row (its
 * column names looked up each time) cost more than the lookup.
 */
function toMatch([id, fileId, name, qualifiedName, kind, container, lineStart, lineEnd, nameLine]: SqlValue[], entity: ExtractedEntity, how: MatchHow): SymbolMatch {
  return {
    symbolId: Number(id), fileId: Number(fileId), name: String(name), qualifiedName: String(qualifiedName),
    kind: String(kind), ...(container !== null ? { container: String(container) } : {}),
    lineStart: Number(lineStart), lineEnd: Number(lineEnd), nameLine: Number(nameLine),
    entity: entity.text, entityKind: entity.kind, how, quality: 0,
  };
}

/** Fields, locals and the like are not what a question names; definitions with bodies are. */
const MINOR_KINDS = new Set(['field', 'variable']);

function lookup(db: IndexDatabase, facts: DbFacts, entity: ExtractedEntity): SymbolMatch[] {
  const text = entity.text;
  if (entity.kind === 'path') return [];
  const parts = text.split(/\.|::|#/).filter(Boolean);
  const last = parts[parts.length - 1]!;
  if (parts.length > 1) {
    const dotted = parts.join('.');
    const rows = db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name = ? AND (s.qualified_name = ? OR s.qualified_name LIKE ?)`, [last, dotted, `%.${dotted}`]);
    if (rows.length) return rows.map((r) => toMatch(r, entity, 'qualified'));
    // The qualifier may be a module path or an instance (`auth.service.login`, `c.req.param`): the last part,
    // checked against the file's path and the symbol's containers.
    const quals = parts.slice(0, -1).map((q) => q.toLowerCase());
    return db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name = ?`, [last]).map((r) => {
      const m = toMatch(r, entity, 'exact');
      const fact = facts.files.get(m.fileId);
      const context = `${m.qualifiedName} ${fact?.path ?? ''}`.toLowerCase();
      m.how = quals.some((q) => context.includes(q)) ? 'qualified' : 'partial';
      return m;
    });
  }
  const exact = db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name = ?`, [text]).map((r) => toMatch(r, entity, 'exact'));
  const folded = db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE lower(s.name) = lower(?) AND s.name <> ?`, [text, text]).map((r) => toMatch(r, entity, 'case'));
  if (exact.length || folded.length || entity.kind === 'word') return [...exact, ...folded];
  if (text.length >= 5) {
    const partial = partialRows(db, facts, text);
    if (partial.length) return partial.map((r) => toMatch(r, entity, 'partial'));
  }
  if (entity.subject) {
    const declared = declarations(db, entity);
    if (declared.length) return declared;
  }
  if (text.length < 6) return [];
  const budget = text.length >= 10 ? 2 : 1;
  const near = facts.symbolNames.filter((n) => Math.abs(n.length - text.length) <= budget && distance(n.toLowerCase(), text.toLowerCase()) <= budget).slice(0, 5);
  if (!near.length) return [];
  return db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name IN (${near.map(() => '?').join(',')})`, near).map((r) => toMatch(r, entity, 'fuzzy'));
}

/** Names per `name IN (…)` list. */
const NAME_LIST = 500;
/** Rows a partial match keeps. */
const PARTIAL_ROWS = 5;

/**
 * The PARTIAL_ROWS definitions whose name holds `text`, shortest name first, then by row: what
 * `SELECT … FROM symbols s WHERE s.name LIKE '%text%' ORDER BY length(s.name) LIMIT 5` returns (SQLite scans the rows
 * in id order and its ORDER BY … LIMIT keeps ties in scan order), without the scan: that query read every definition
 * (1.7 s at 124k files for a long name held by none). The names are matched in memory (the distinct names, a few
 * percent of the rows), then only the shortest ones' rows are read.
 */
export function partialRows(db: IndexDatabase, facts: DbFacts, text: string): SqlValue[][] {
  const like = likePattern(text);
  const byLength = new Map<number, string[]>();
  for (const name of facts.symbolNames) {
    if (!like.test(name)) continue;
    // SQLite's length() counts characters (code points), not UTF-16 units.
    const n = [...name].length;
    const names = byLength.get(n);
    if (names) names.push(name);
    else byLength.set(n, [name]);
  }
  const out: SqlValue[][] = [];
  for (const n of [...byLength.keys()].sort((a, b) => a - b)) {
    const names = byLength.get(n)!;
    const rows: SqlValue[][] = [];
    for (let i = 0; i < names.length; i += NAME_LIST) {
      const part = names.slice(i, i + NAME_LIST);
      rows.push(...db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name IN (${part.map(() => '?').join(',')})`, part));
    }
    rows.sort((a, b) => Number(a[0]) - Number(b[0]));
    out.push(...rows.slice(0, PARTIAL_ROWS - out.length));
    if (out.length >= PARTIAL_ROWS) break;
  }
  return out;
}

/**
 * SQLite's `LIKE '%text%'` as a regular expression: `%` any run of characters, `_` one character, ASCII letters in
 * either case, every other character itself (SQLite folds no other case without ICU).
 */
function likePattern(text: string): RegExp {
  let source = '';
  for (const c of text) {
    if (c === '%') source += '[^]*';
    else if (c === '_') source += '.';
    else if (/[A-Za-z]/.test(c)) source += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else source += escapeRegExp(c);
  }
  return new RegExp(source, 'su');
}

/**
 * Names the parser did not record as definitions (a named function expression, a construct the grammar's query
 * misses) are still findable: chunks that hold the name, scanned for a line that declares it.
 */
function declarations(db: IndexDatabase, entity: ExtractedEntity): SymbolMatch[] {
  const name = entity.text;
  if (!/^[A-Za-z_$][\w$]{2,}$/.test(name)) return [];
  const escaped = name.replace(/\$/g, '\\$');
  const decl = new RegExp(`(?:\\b(?:function\\*?|class|def|func|fn|struct|trait|type|interface|enum|union|macro_rules!|const|let|var|static)\\s+${escaped}\\b)|(?:^\\s*(?:export\\s+)?(?:pub(?:\\([\\w:]+\\))?\\s+)?${escaped}\\s*(?::[^=]*)?=\\s*(?:async\\s+)?(?:function|\\(|<))`);
  const rows = liveChunks(db, termPostings(db, { text: name.replace(/\$/g, '').toLowerCase() }).idList(), DECLARATION_CHUNKS);
  const out: SymbolMatch[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    // The chunk's own lines (a container's chunk spans its head), as far as its text goes.
    const lines = indexedLines(db, Number(r.file_id)) ?? [];
    const from = Number(r.line_start);
    const to = Math.min(Number(r.line_end), from + CHUNK_MAX_LINES - 1, lines.length);
    let i = -1;
    for (let line = from; line <= to; line++) if (decl.test(lines[line - 1]!)) { i = line - from; break; }
    if (i < 0) continue;
    const line = Number(r.line_start) + i;
    const key = `${String(r.file_id)}:${line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      symbolId: -Number(r.id) * 100000 - i, fileId: Number(r.file_id), name, qualifiedName: name, kind: 'other', lineStart: line,
      lineEnd: line, nameLine: line, entity: entity.text, entityKind: entity.kind, how: 'exact', quality: 0,
    });
  }
  return out.slice(0, 5);
}

/** Most chunks holding a name that declarations() scans. */
const DECLARATION_CHUNKS = 200;

/** The first `limit` of these chunks (ascending ids, removed ones skipped) with their file and lines. */
function liveChunks(db: IndexDatabase, ids: Int32Array, limit: number): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < ids.length && out.length < limit; i += limit) {
    const part = Array.from(ids.subarray(i, i + limit));
    const byId = new Map(db.all(`SELECT id, file_id, line_start, line_end FROM chunk_spans WHERE id IN (${part.map(() => '?').join(',')})`, part).map((r) => [Number(r.id), r]));
    for (const id of part) {
      const row = byId.get(id);
      if (row && out.length < limit) out.push(row);
    }
  }
  return out;
}

/** Every definition the question names, with a quality in 0..1; the best match per symbol wins. */
export function resolveEntities(db: IndexDatabase, facts: DbFacts, entities: ExtractedEntity[]): SymbolMatch[] {
  const best = new Map<number, SymbolMatch>();
  for (const entity of entities) {
    let found = lookup(db, facts, entity).filter((m) => !MINOR_KINDS.has(m.kind) || m.how === 'exact');
    // Prefer definitions in source files and at the top level when a name is common; for the subject of a
    // definition question, exact names first (a nested `class Close` must not be cut by a dozen `close()`). Not for
    // every entity: on commit messages that moved set A's LORO MRR by -0.003 and hono's R@5 by -0.025.
    const how = (m: SymbolMatch): number => (entity.subject ? -HOW_QUALITY[m.how] : 0);
    found.sort((a, b) => how(a) - how(b) || rankOf(facts, a) - rankOf(facts, b) || facts.pathRank(a.fileId) - facts.pathRank(b.fileId) || a.lineStart - b.lineStart);
    found = found.slice(0, MAX_PER_ENTITY);
    // Overloads and declaration merging repeat a name within one file: spread over files, not rows.
    const spread = 1 / Math.sqrt(Math.max(1, new Set(found.filter((m) => m.how === found[0]?.how).map((m) => m.fileId)).size));
    for (const m of found) {
      m.quality = HOW_QUALITY[m.how] * entity.confidence * spread;
      const prior = best.get(m.symbolId);
      if (!prior || prior.quality < m.quality) best.set(m.symbolId, m);
    }
  }
  // Ties by path, then by symbol row within a file (rows of one file keep their extraction order): never across files
  // by id, which follows indexing history.
  return [...best.values()].sort((a, b) => b.quality - a.quality || facts.pathRank(a.fileId) - facts.pathRank(b.fileId) || a.symbolId - b.symbolId);
}

function rankOf(facts: DbFacts, m: SymbolMatch): number {
  const cls = facts.files.get(m.fileId)?.cls;
  return (cls === 'source' ? 0 : cls === 'aux' ? 2 : 4) + (m.container ? 1 : 0) + (MINOR_KINDS.has(m.kind) ? 3 : 0);
}
