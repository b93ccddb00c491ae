/**
 * References from the index: reference captures named like the definition plus the name's other occurrences
 * (value uses the captures miss), kept only in files whose imports bind the name to the definition (directly or
 * through re-exports), in its package, or — for languages whose imports we do not resolve — anywhere when the name
 * is defined once. The import statements naming it count too, as they do for tsserver.
 */
import type { IndexDatabase } from '../store/database';
import { accepts, bindingOf, findInStatement, statementLines, type Binding } from './bindings';
import { classifyPath } from './path-class';
import type { FileLink, ImportRelations } from './relations';
import type { LineReader } from './source-lines';
import type { DefinitionHit, ReferenceHit, ReferenceProximity } from './types';
import { valueUses } from './value-uses';

const PROXIMITY_ORDER: Record<ReferenceProximity, number> = {
  'same-file': 0, imports: 1, 're-export': 2, 'same-package': 3, 'unique-name': 4, lsp: 5,
};

export interface ReferenceContext {
  db: IndexDatabase;
  relations: ImportRelations;
  lines: LineReader;
}

type Draft = Omit<ReferenceHit, 'preview'>;

/**
 * Languages whose namespaces are opened whole (C# `using`, Ruby `require`), never imported by their own name: a
 * names-free import binds every name it brings, a type in a namespace is no member of it, and it is defined once when one qualified name holds it (C# partial classes
 * span files) besides its own constructors.
 */
const OPEN_NAMESPACES = new Set(['csharp', 'ruby']);

function namespaced(db: IndexDatabase, fileId: number, language: string, def: DefinitionHit): boolean {
  return def.container !== undefined && OPEN_NAMESPACES.has(language)
    && db.get("SELECT 1 AS x FROM symbols WHERE file_id = ? AND qualified_name = ? AND kind = 'module'", [fileId, def.container]) !== undefined;
}

function definedOnce(db: IndexDatabase, language: string, name: string): boolean {
  const sql = OPEN_NAMESPACES.has(language)
    ? "SELECT count(DISTINCT qualified_name) AS n FROM symbols WHERE name = ? AND NOT (kind = 'method' AND (container = name OR container LIKE '%.' || name))"
    : 'SELECT count(*) AS n FROM symbols WHERE name = ?';
  return Number(db.get(sql, [name])?.n ?? 0) === 1;
}

export async function indexReferences(ctx: ReferenceContext, def: DefinitionHit): Promise<ReferenceHit[]> {
  const { db, relations } = ctx;
  const defFile = relations.fileByPath(def.path);
  if (!defFile) return [];
  const member = def.container !== undefined && !namespaced(db, defFile.id, defFile.language, def);
  const unique = !member && definedOnce(db, defFile.language, def.name);

  const links = new Map<number, FileLink | undefined>();
  const linkOf = (fileId: number): FileLink | undefined => {
    if (!links.has(fileId)) {
      const file = relations.file(fileId);
      // A member is reached through its module: a file that gets a Server from it can call its methods.
      let link = !file ? undefined : member ? relations.linkModule(file, def.path) : relations.link(file, def.name, def.path);
      if (!link && file && unique && relations.trustsUniqueName(file, def.name)) link = { proximity: 'unique-name' };
      links.set(fileId, link);
    }
    return links.get(fileId);
  };
  const bindings = new Map<number, Binding | undefined>();
  const bindingFor = async (fileId: number): Promise<Binding | undefined> => {
    if (!bindings.has(fileId)) {
      const link = linkOf(fileId);
      const path = relations.file(fileId)?.path;
      // Members are used through receivers whatever the import: `x.listen()`, never a bare `listen()`.
      // A names-free `require`/`using` of an open namespace brings every name in it, bare.
      const opens = link?.import?.names.length === 0 && OPEN_NAMESPACES.has(relations.file(fileId)?.language ?? '');
      bindings.set(fileId, !link || !path ? undefined : member ? { link, bound: false } : opens ? { link, bound: true } : bindingOf(link, def.name, await ctx.lines.lines(path)));
    }
    return bindings.get(fileId);
  };

  const drafts = new Map<string, Draft>();
  const add = (d: Draft): void => {
    const key = `${d.path}:${d.line}:${d.column}`;
    if (!drafts.has(key) && !(d.path === def.path && d.line === def.line && d.column === def.column)) drafts.set(key, d);
  };
  const before = async (path: string, line: number, column: number): Promise<string | undefined> =>
    (await ctx.lines.lines(path))?.[line - 1]?.slice(0, column - 1);

  // 1. Reference captures, in files that bind the name.
  const scanned = new Set<number>([defFile.id]);
  for (const r of db.all('SELECT file_id, kind, line, col, end_col, in_symbol FROM refs WHERE name = ?', [def.name])) {
    const fileId = Number(r.file_id);
    const binding = await bindingFor(fileId);
    if (!binding) continue;
    scanned.add(fileId);
    const path = relations.file(fileId)!.path;
    const prefix = await before(path, Number(r.line), Number(r.col));
    if (prefix !== undefined && !accepts(binding, prefix)) continue;
    add({
      path, line: Number(r.line), column: Number(r.col), endColumn: Number(r.end_col), kind: String(r.kind),
      ...(r.in_symbol !== null ? { inSymbol: String(r.in_symbol) } : {}), proximity: binding.link.proximity, source: 'index',
    });
  }
  if (!member) {
    // 2. The import statements that name it.
    for (const row of [...relations.rowsNaming(def.name), ...relations.rowsTargeting(def.path)]) scanned.add(row.fileId);
    for (const fileId of scanned) {
      const link = linkOf(fileId);
      const path = relations.file(fileId)!.path;
      const lines = await ctx.lines.lines(path);
      if (!link?.import || !lines) continue;
      const at = findInStatement(lines, link.import.line, def.name);
      if (at) add({ path, ...at, endColumn: at.column + def.name.length, kind: 'import', proximity: link.proximity, source: 'index' });
    }
    // 3. Value uses the captures miss.
    for (const fileId of scanned) {
      const binding = await bindingFor(fileId);
      const file = relations.file(fileId)!;
      const lines = await ctx.lines.lines(file.path);
      if (!binding || !lines) continue;
      const otherImports = new Set(relations.importsOf(fileId).filter((row) => binding.localName !== undefined || row !== binding.link.import).flatMap((row) => statementLines(lines, row.line)));
      for (const use of valueUses(lines.join('\n'), file.language, def, file.path === def.path, binding, otherImports)) {
        add({ path: file.path, ...use, endColumn: use.column + (binding.localName ?? def.name).length, kind: 'other', proximity: binding.link.proximity, source: 'index' });
      }
    }
  }

  const kept = [...drafts.values()];
  kept.sort((a, b) => PROXIMITY_ORDER[a.proximity] - PROXIMITY_ORDER[b.proximity] || classifyPath(a.path) - classifyPath(b.path)
    || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return Promise.all(kept.map(async (d) => ({ ...d, preview: await ctx.lines.line(d.path, d.line) })));
}

/** A language server's references, ranked by how their files relate to the definition's through imports. */
export function withProximity(hits: ReferenceHit[], def: DefinitionHit, rel: ImportRelations): ReferenceHit[] {
  const out = hits.map((h) => {
    const file = rel.fileByPath(h.path);
    const link = !file ? undefined : def.container ? rel.linkModule(file, def.path) : rel.link(file, def.name, def.path);
    return link ? { ...h, proximity: link.proximity } : h;
  });
  out.sort((a, b) => PROXIMITY_ORDER[a.proximity] - PROXIMITY_ORDER[b.proximity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return out;
}
