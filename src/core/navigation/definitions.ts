/**
 * Definitions from the tree-sitter index: candidates by name (any case), filtered by the query's qualifiers
 * (containers and module path parts), ranked so the canonical definition comes first.
 */
import type { IndexDatabase, Row } from '../store/database';
import { classifyPath, isDeclarationFile, pathSegments } from './path-class';
import type { SymbolQuery } from './symbol-query';
import type { DefinitionHit, NavigationSource } from './types';

/** A definition candidate with what ranking needs; `hit` is what callers get. */
export interface RankedDefinition {
  hit: DefinitionHit;
  language: string;
  lineStart: number;
  /** The package a qualifier may name when it is not a directory (Go's `package caddy` at the module root). */
  packageName?: string;
}

export function loadCandidates(db: IndexDatabase, name: string): RankedDefinition[] {
  const rows = db.all(
    `SELECT s.name, s.qualified_name, s.kind, s.container, s.line_start, s.line_end, s.name_line, s.name_col,
        s.name_end_col, s.signature, f.path, f.language
     FROM symbols s JOIN files f ON f.id = s.file_id WHERE lower(s.name) = ?`,
    [name.toLowerCase()],
  );
  return rows.map((r) => toCandidate(r, 'index'));
}

function toCandidate(r: Row, source: NavigationSource): RankedDefinition {
  const signature = String(r.signature ?? '');
  return {
    hit: {
      name: String(r.name),
      qualifiedName: String(r.qualified_name),
      kind: String(r.kind),
      ...(r.container !== null && r.container !== undefined ? { container: String(r.container) } : {}),
      path: String(r.path),
      line: Number(r.name_line),
      column: Number(r.name_col),
      endColumn: Number(r.name_end_col),
      endLine: Number(r.line_end),
      signature,
      preview: previewOf(signature),
      source,
    },
    language: String(r.language),
    lineStart: Number(r.line_start),
  };
}

export function previewOf(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * How well a candidate's containers and path match the query's qualifiers: 3 when the qualified name ends with
 * them, 2 when they appear in order among path parts and containers, 0 when some qualifier matches nothing.
 */
export function qualifierMatch(hit: DefinitionHit, qualifiers: string[], packageName?: string): number {
  if (!qualifiers.length) return 3;
  const wanted = [...qualifiers, hit.name].join('.');
  if (hit.qualifiedName === wanted || hit.qualifiedName.endsWith(`.${wanted}`)) return 3;
  const chain = [...pathSegments(hit.path).map((s) => s.toLowerCase()), ...(packageName ? [packageName] : []), ...(hit.container?.split('.') ?? [])];
  let at = chain.length - 1;
  for (let q = qualifiers.length - 1; q >= 0; q--) {
    const want = qualifiers[q]!;
    while (at >= 0 && chain[at] !== want && chain[at] !== want.toLowerCase()) at--;
    if (at < 0) return 0;
    at--;
  }
  return 2;
}

const KIND_RANK: Record<string, number> = {
  class: 0, interface: 0, struct: 0, trait: 0, enum: 0, type: 0, protocol: 0, object: 0, function: 0, module: 0, macro: 0,
  method: 1, constant: 2, variable: 2, field: 3,
};

/**
 * Declaration files and stubs say a definition exists; the implementation elsewhere is the canonical one. An
 * overload group (TypeScript signatures, Python @overload) is one definition: its first declaration, where the
 * public signatures and the doc comment are, comes first and the rest follow.
 */
function declarationRank(c: RankedDefinition, all: RankedDefinition[]): number {
  if (isDeclarationFile(c.hit.path) && all.some((o) => !isDeclarationFile(o.hit.path))) return 2;
  if (c.hit.kind !== 'function' && c.hit.kind !== 'method') return 0;
  const earlier = all.some((o) => o.hit.path === c.hit.path && o.hit.qualifiedName === c.hit.qualifiedName && o.lineStart < c.lineStart);
  return earlier ? 1 : 0;
}

/**
 * Ranks and filters candidates for `query`; the first is the canonical definition. `importers` (how many files
 * import a path) breaks ties between otherwise equal candidates: the definition the code base uses wins.
 */
export function rankDefinitions(candidates: RankedDefinition[], query: SymbolQuery, importers?: (path: string) => number): DefinitionHit[] {
  let scored = candidates
    .map((c) => ({ c, match: qualifierMatch(c.hit, query.qualifiers, c.packageName) }))
    .map(({ c, match }) => ({
      c,
      keys: [
        -match,
        c.hit.name === query.name ? 0 : 1,
        classifyPath(c.hit.path),
        declarationRank(c, candidates),
        // Unless the query named its container (`Server.listen`), a top-level definition is the likelier target.
        (match !== 3 || query.qualifiers.length === 0) && c.hit.container ? 1 : 0,
        KIND_RANK[c.hit.kind] ?? 4,
        candidates.length > 1 && importers ? -importers(c.hit.path) : 0,
        c.hit.path.split('/').length,
      ],
    }))
    .filter((s) => s.keys[0]! < 0);
  // When some candidates match the qualifiers exactly (`Hono.route` is Hono's route), looser matches are noise.
  const best = Math.min(...scored.map((s) => s.keys[0]!));
  scored = scored.filter((s) => s.keys[0] === best);
  scored.sort((a, b) => {
    for (let i = 0; i < a.keys.length; i++) if (a.keys[i] !== b.keys[i]) return a.keys[i]! - b.keys[i]!;
    return a.c.hit.path.localeCompare(b.c.hit.path) || a.c.hit.line - b.c.hit.line;
  });
  return scored.map((s) => s.c.hit);
}
