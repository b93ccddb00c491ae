/**
 * Call sites of the selected functions: the lines that call them, with the caller's name. MU's post-mortem found
 * that signatures alone led an agent to a wrong diagnosis; how a function is called is part of what it means.
 */
import { indexedLines } from '../store/chunk-texts';
import type { IndexDatabase, Row } from '../store/database';
import { REFERENCE_KIND_CODES } from '../store/schema';
import type { DbFacts } from './db-facts';
import type { NodeCandidate } from './select-nodes';

export interface CallSite {
  /** The node (function or method) being called. */
  calleeId: string;
  callee: string;
  path: string;
  line: number;
  caller?: string;
  /** The calling line, trimmed. */
  code: string;
  score: number;
}

const CALLABLE = new Set(['function', 'method', 'macro']);
/** Names defined in more files than this are too ambiguous to resolve by name. */
const MAX_DEFINING_FILES = 3;
const SITES_PER_CALLEE = 3;
const CALLEES = 8;
/** ref_rows.kind of a call (store/schema.ts). */
const CALL_CODE = REFERENCE_KIND_CODES.indexOf('call');

export function findCallSites(db: IndexDatabase, facts: DbFacts, nodes: NodeCandidate[]): CallSite[] {
  const out: CallSite[] = [];
  const callees = nodes.filter((n) => n.symbol && CALLABLE.has(n.kind)).slice(0, CALLEES);
  const lineCache = new Map<string, string | undefined>();
  // Copies of one function (vendored, or a second checkout) share their callers: each calling line is shown once.
  const shown = new Set<string>();
  // Copies of one function share their name and container: their calls elsewhere are chosen once.
  const chosen = new Map<string, Row[]>();
  for (const n of callees) {
    const parts = n.symbol!.split('.');
    const name = parts.pop()!;
    const container = parts.pop();
    // A common name (`get`, `new`) is resolved by name only when few files define it; a method with a common name
    // keeps the calls in files that also mention its class.
    const ambiguous = (facts.definingFiles.get(name) ?? 0) > MAX_DEFINING_FILES;
    if (ambiguous && !container) continue;
    const rows = callRows(db, name, ambiguous ? container! : undefined, n.fileId, chosen);
    // Calls from source files first (tests show usage too, but after the code that depends on the behaviour), then
    // one per calling file before a second from the same file; source lines are read for the winners only.
    const candidates = rows
      .map((r) => ({ fileId: Number(r.file_id), line: Number(r.line), caller: r.in_symbol === null ? undefined : String(r.in_symbol) }))
      .filter((c) => facts.files.has(c.fileId) && !(c.fileId === n.fileId && c.line >= n.lineStart && c.line <= n.lineEnd))
      .map((c) => ({ ...c, path: facts.files.get(c.fileId)!.path, weight: facts.files.get(c.fileId)!.cls === 'source' ? 1 : 0.6 }));
    const perFile = new Map<number, number>();
    for (const c of candidates) perFile.set(c.fileId, (perFile.get(c.fileId) ?? 0) + 1);
    const seen = new Map<number, number>();
    const ordered = candidates
      .map((c) => ({ ...c, nth: (seen.set(c.fileId, (seen.get(c.fileId) ?? 0) + 1), seen.get(c.fileId)!) }))
      .sort((a, b) => b.weight - a.weight || a.nth - b.nth || a.path.localeCompare(b.path) || a.line - b.line);
    let taken = 0;
    for (const c of ordered) {
      if (taken >= SITES_PER_CALLEE) break;
      const key = `${c.fileId}:${c.line}`;
      const site = `${n.symbol}@${key}`;
      if (shown.has(site)) continue;
      if (!lineCache.has(key)) lineCache.set(key, sourceLine(db, c.fileId, c.line));
      const code = lineCache.get(key);
      if (!code) continue;
      taken++;
      shown.add(site);
      out.push({
        calleeId: n.id, callee: n.symbol!, path: c.path, line: c.line, code, score: Math.round(n.score * c.weight * 10000) / 10000,
        ...(c.caller ? { caller: c.caller } : {}),
      });
    }
  }
  return out.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line);
}

/** Calls chosen per callee: its own file's first, then the others by path and line. */
const CALL_ROWS = 200;

/**
 * The first CALL_ROWS calls of `name` (file_id, line, in_symbol): the callee's own file's by line, then the other
 * files' by path, line and place in the file; with a `container`, only files that mention it. They are chosen from
 * ref_rows before their callers' names are looked up (through the `refs` view every call of the name paid that
 * lookup before the LIMIT: 9–11 % of a first question at 10k files), and by path, not by file id (ids follow
 * indexing history, and a caught-up index must answer as a fresh one).
 * The other files' calls are the same for every copy of a callee, chosen once into `chosen` (keyed by name and
 * container): the callee's own file left out of them leaves the ones after in order, so the first CALL_ROWS after
 * its own are among the first CALL_ROWS of all. Whether a calling file mentions the container is one seek in
 * ref_counts (a row per file and name referenced): a list of every file referencing it, built per callee, was 67k
 * references for Go's `Context` at 100k files and most of a question naming one of its methods.
 */
function callRows(db: IndexDatabase, name: string, container: string | undefined, fileId: number, chosen: Map<string, Row[]>): Row[] {
  const key = container === undefined ? name : `${name}\0${container}`;
  let others = chosen.get(key);
  if (!others) {
    // The first CALL_ROWS calling files by path hold the first CALL_ROWS calls: files are sorted, not every call
    // (26k calls of `Builder` in 2.4k files at 100k files), then only their calls are read.
    const known = container !== undefined;
    others = db.all(
      `SELECT r.file_id, r.line, (SELECT qualified_name FROM symbols WHERE id = r.caller_id) AS in_symbol FROM (
         SELECT f.id, f.path FROM files f
         WHERE f.id IN (SELECT file_id FROM ref_rows WHERE name_id = (SELECT id FROM ref_names WHERE name = ?) AND kind = ${CALL_CODE})
           ${known ? 'AND EXISTS (SELECT 1 FROM ref_counts c JOIN ref_names cn ON cn.id = c.name_id WHERE c.file_id = f.id AND cn.name = ?)' : ''}
         ORDER BY f.path LIMIT ${CALL_ROWS}) g
       JOIN ref_rows r ON r.file_id = g.id AND r.name_id = (SELECT id FROM ref_names WHERE name = ?) AND r.kind = ${CALL_CODE}
       ORDER BY g.path, r.line, r.seq LIMIT ${CALL_ROWS}`,
      known ? [name, container, name] : [name, name],
    );
    chosen.set(key, others);
  }
  const own = db.all(
    `SELECT r.file_id, r.line, (SELECT qualified_name FROM symbols WHERE id = r.caller_id) AS in_symbol
       FROM ref_rows r JOIN ref_names n ON n.id = r.name_id
       WHERE r.file_id = ? AND n.name = ? AND r.kind = ${CALL_CODE} ORDER BY r.line, r.seq LIMIT ${CALL_ROWS}`,
    [fileId, name],
  );
  for (const r of others) {
    if (own.length >= CALL_ROWS) break;
    if (Number(r.file_id) !== fileId) own.push(r);
  }
  return own;
}

/** One line of a file as indexed, trimmed (undefined when blank or not in the index). */
export function sourceLine(db: IndexDatabase, fileId: number, line: number): string | undefined {
  return indexedLines(db, fileId)?.[line - 1]?.trim().slice(0, 160) || undefined;
}
