/** Implementations from the index: definitions whose heads extend, implement or embed the named type. */
import type { IndexDatabase } from '../store/database';
import { previewOf } from './definitions';
import type { DefinitionHit } from './types';

/**
 * Definitions that extend or implement `def` by name: `implements` and interface-embedding captures anywhere in
 * them, class (`extends`) captures on their first lines, where the heritage clause is.
 */
export function indexImplementations(db: IndexDatabase, def: DefinitionHit): DefinitionHit[] {
  const rows = db.all(
    `SELECT DISTINCT s.name, s.qualified_name, s.kind, s.container, s.line_start, s.line_end, s.name_line, s.name_col,
        s.name_end_col, s.signature, f.path, f.language
     FROM refs r JOIN files f ON f.id = r.file_id
     JOIN symbols s ON s.file_id = r.file_id AND s.qualified_name = r.in_symbol
     WHERE r.name = ? AND (r.kind = 'implementation' OR (r.kind = 'class' AND r.line <= s.name_line + 2))`,
    [def.name],
  );
  return rows.map((r) => ({
    name: String(r.name), qualifiedName: String(r.qualified_name), kind: String(r.kind),
    ...(r.container !== null ? { container: String(r.container) } : {}),
    path: String(r.path), line: Number(r.name_line), column: Number(r.name_col), endColumn: Number(r.name_end_col),
    endLine: Number(r.line_end), signature: String(r.signature), preview: previewOf(String(r.signature)), source: 'index' as const,
  })).filter((h) => !(h.path === def.path && h.line === def.line));
}
