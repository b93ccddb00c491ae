/**
 * Answers from the editor's language servers (the NavigationProvider port), shaped like index answers and marked
 * `source: "lsp"`. The index, when there is one, adds what the provider does not say: kind, signature, caller.
 */
import type { NavigationProvider, NavLocation } from '../ports';
import type { IndexDatabase } from '../store/database';
import { previewOf, rankDefinitions, type RankedDefinition } from './definitions';
import type { LineReader } from './source-lines';
import type { SymbolQuery } from './symbol-query';
import type { DefinitionHit, ReferenceHit } from './types';

/** Provider paths must be workspace-relative; anything else (libraries, other roots) is not ours to show. */
function inWorkspace(loc: NavLocation): boolean {
  return loc.path.length > 0 && !loc.path.startsWith('../') && !loc.path.startsWith('/') && !/^[A-Za-z]:/.test(loc.path);
}

async function hitAt(loc: NavLocation, fallback: { name: string; kind: string; container?: string }, db: IndexDatabase | undefined, lines: LineReader): Promise<RankedDefinition> {
  const row = db?.get(
    `SELECT s.name, s.qualified_name, s.kind, s.container, s.line_start, s.line_end, s.signature, f.language FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE f.path = ? AND s.name_line = ? ORDER BY (s.name = ?) DESC, abs(s.name_col - ?) LIMIT 1`,
    [loc.path, loc.line, fallback.name, loc.column],
  );
  const signature = row ? String(row.signature) : await lines.line(loc.path, loc.line);
  const container = row?.container !== null && row?.container !== undefined ? String(row.container) : fallback.container;
  const name = row ? String(row.name) : fallback.name;
  return {
    hit: {
      name,
      qualifiedName: row ? String(row.qualified_name) : container ? `${container}.${name}` : name,
      kind: row ? String(row.kind) : fallback.kind,
      ...(container ? { container } : {}),
      path: loc.path,
      line: loc.line,
      column: loc.column,
      endColumn: loc.endColumn ?? loc.column + name.length,
      endLine: row ? Number(row.line_end) : loc.endLine ?? loc.line,
      signature,
      preview: previewOf(signature),
      source: 'lsp',
    },
    language: row ? String(row.language) : '',
    lineStart: row ? Number(row.line_start) : loc.line,
  };
}

/** Workspace symbols named like the query (any case), filtered and ranked like index candidates. */
export async function lspDefinitions(provider: NavigationProvider, query: SymbolQuery, db: IndexDatabase | undefined, lines: LineReader, signal?: AbortSignal): Promise<DefinitionHit[]> {
  const symbols = await provider.workspaceSymbols(query.name, signal);
  const wanted = query.name.toLowerCase();
  const candidates = await Promise.all(symbols
    .filter((s) => s.name.toLowerCase() === wanted && inWorkspace(s.location))
    .map((s) => hitAt(s.location, { name: s.name, kind: s.kind, ...(s.container ? { container: s.container } : {}) }, db, lines)));
  return rankDefinitions(candidates, query);
}

/** Locations as definition hits (implementations), enriched from the index. */
export async function lspLocationsAsDefinitions(locations: NavLocation[], name: string, db: IndexDatabase | undefined, lines: LineReader): Promise<DefinitionHit[]> {
  const hits = await Promise.all(locations.filter(inWorkspace).map((l) => hitAt(l, { name, kind: 'other' }, db, lines)));
  return hits.map((h) => h.hit);
}

/** References at the definition's name, without the declaration itself, with the index's kind and caller. */
export async function lspReferences(provider: NavigationProvider, def: DefinitionHit, db: IndexDatabase | undefined, lines: LineReader, signal?: AbortSignal): Promise<ReferenceHit[]> {
  const at: NavLocation = { path: def.path, line: def.line, column: def.column, endColumn: def.endColumn };
  const locations = (await provider.references(at, signal)).filter((l) => inWorkspace(l) && !(l.path === def.path && l.line === def.line && l.column === def.column));
  const hits = await Promise.all(locations.map(async (l): Promise<ReferenceHit> => {
    const ref = db?.get('SELECT r.kind, r.in_symbol FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ? AND r.col = ? LIMIT 1', [l.path, l.line, l.column]);
    return {
      path: l.path, line: l.line, column: l.column, endColumn: l.endColumn ?? l.column + def.name.length,
      kind: ref ? String(ref.kind) : 'other',
      preview: await lines.line(l.path, l.line),
      ...(ref?.in_symbol !== null && ref?.in_symbol !== undefined ? { inSymbol: String(ref.in_symbol) } : {}),
      proximity: l.path === def.path ? 'same-file' : 'lsp',
      source: 'lsp',
    };
  }));
  hits.sort((a, b) => Number(b.path === def.path) - Number(a.path === def.path) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return hits;
}
