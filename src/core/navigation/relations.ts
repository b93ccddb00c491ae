/**
 * How each file relates to a definition's file through imports: the filter and the ranking key of index references.
 * A file relates when it imports the name, the whole module, or the module under an alias from the definition's
 * file, directly or through modules that re-export it; Go (and Java, Kotlin) files of one package relate without
 * imports, and C# files by their namespaces.
 */
import type { IndexDatabase } from '../store/database';
import { ImportResolver, type ImportRow, type IndexedFile } from './imports';
import type { ReferenceProximity } from './types';

const MAX_REEXPORT_DEPTH = 3;
/** Languages whose imports we resolve; elsewhere a name defined once is trusted without an import. */
const RESOLVED_LANGUAGES = new Set(['typescript', 'tsx', 'javascript', 'jsx', 'python', 'go']);
const PACKAGE_SCOPED = new Set(['go', 'java', 'kotlin']);

/** How a file reaches a definition; `import` is the statement that brings it, when one does. */
export interface FileLink {
  proximity: ReferenceProximity;
  import?: ImportRow;
  /** The module came in under these aliases (namespace or default import): only `alias.name` refers to it. */
  qualifiers?: string[];
}

export class ImportRelations {
  private readonly files = new Map<number, IndexedFile>();
  private readonly byPath = new Map<string, IndexedFile>();
  private readonly imports = new Map<number, ImportRow[]>();
  private readonly resolved = new Map<string, string[]>();
  private byTarget: Map<string, ImportRow[]> | undefined;
  private readonly topLevel = new Map<string, Set<string>>();
  /** C# file → the namespaces it declares, read on first use. */
  private namespaces: Map<number, string[]> | undefined;

  constructor(private readonly db: IndexDatabase, readonly resolver: ImportResolver) {
    for (const r of db.all('SELECT id, path, language FROM files')) {
      const f = { id: Number(r.id), path: String(r.path), language: String(r.language) };
      this.files.set(f.id, f);
      this.byPath.set(f.path, f);
    }
    for (const r of db.all('SELECT file_id, source, names, line FROM imports')) {
      const row: ImportRow = { fileId: Number(r.file_id), source: String(r.source), names: String(r.names).split(',').filter(Boolean), line: Number(r.line) };
      const list = this.imports.get(row.fileId);
      if (list) list.push(row);
      else this.imports.set(row.fileId, [row]);
    }
  }

  file(id: number): IndexedFile | undefined {
    return this.files.get(id);
  }

  fileByPath(path: string): IndexedFile | undefined {
    return this.byPath.get(path);
  }

  importsOf(fileId: number): ImportRow[] {
    return this.imports.get(fileId) ?? [];
  }

  /**
   * Files an import brings in; for Python `from pkg import mod`, the submodules it names too, and for a PHP group
   * `use A\{B, C}` (source A, names B and C) the class files A\B and A\C.
   */
  targets(row: ImportRow): string[] {
    const from = this.files.get(row.fileId);
    if (!from) return [];
    const byName = from.language === 'python' || from.language === 'php';
    const key = `${row.fileId}\0${row.source}\0${byName ? row.names.join(',') : ''}`;
    let out = this.resolved.get(key);
    if (!out) {
      const set = new Set(this.resolver.resolve(from, row.source));
      if (from.language === 'python') {
        for (const n of row.names) for (const p of this.resolver.resolve(from, row.source.endsWith('.') ? row.source + n : `${row.source}.${n}`)) set.add(p);
      }
      if (from.language === 'php' && !set.size) {
        for (const n of row.names) for (const p of this.resolver.resolve(from, `${row.source}\\${n}`)) set.add(p);
      }
      out = [...set];
      this.resolved.set(key, out);
    }
    return out;
  }

  /**
   * The strongest link from `file` to the definition of `name` in `defPath`: the import that brings it and how
   * close it is. A named import of `name` is best, then a wholesale one (`import './x'`, `require`, Go, Python
   * `import a.b`), then a namespace or default import (`import * as ns`, `from pkg import mod`), whose references
   * must be qualified by the alias; the same through re-exporting modules after that. An import of another name
   * `defPath` defines at top level says nothing about `name`.
   */
  link(file: IndexedFile, name: string, defPath: string): FileLink | undefined {
    if (file.path === defPath) return { proximity: 'same-file' };
    const topLevelNames = this.topLevelNames(defPath);
    let best: { link: FileLink; score: number } | undefined;
    const consider = (link: FileLink, score: number): void => {
      if (!best || score < best.score) best = { link, score };
    };
    for (const row of this.importsOf(file.id)) {
      const named = row.names.includes(name);
      const wholesale = row.names.length === 0;
      const aliases = row.names.filter((n) => n !== name && !topLevelNames.has(n));
      const targets = this.targets(row);
      if (targets.includes(defPath)) {
        if (named) return { import: row, proximity: 'imports' };
        if (wholesale) consider({ import: row, proximity: 'imports' }, 1);
        else if (aliases.length) consider({ import: row, proximity: 'imports', qualifiers: aliases }, 2);
        continue;
      }
      if (!best || best.score > 3) {
        const via = targets.find((t) => this.reexports(t, name, defPath, MAX_REEXPORT_DEPTH, new Set()));
        if (via === undefined) continue;
        // Through a barrel, an alias is a name the barrel itself does not define (`Jwt` defined in the barrel is
        // an object of its own, not a namespace of the module behind it).
        const viaAliases = named || wholesale ? [] : row.names.filter((n) => !this.topLevelNames(via).has(n));
        if (named) consider({ import: row, proximity: 're-export' }, 3);
        else if (wholesale) consider({ import: row, proximity: 're-export' }, 4);
        else if (viaAliases.length) consider({ import: row, proximity: 're-export', qualifiers: viaAliases }, 5);
      }
    }
    if (best) return best.link;
    const defFile = this.byPath.get(defPath);
    if (defFile && file.language === 'csharp' && defFile.language === 'csharp') {
      const link = this.namespaceLink(file, defFile);
      if (link) return link;
    }
    if (defFile && PACKAGE_SCOPED.has(file.language) && file.language === defFile.language && this.resolver.samePackage(file.path, defPath)) {
      return { proximity: 'same-package' };
    }
    return undefined;
  }

  /**
   * Whether `file` imports anything from `defPath` (directly or through re-exporting modules). Members are reached
   * this way: a file that gets a Server from the module, by whatever name, can call its methods.
   */
  linkModule(file: IndexedFile, defPath: string): FileLink | undefined {
    if (file.path === defPath) return { proximity: 'same-file' };
    let reexport: FileLink | undefined;
    for (const row of this.importsOf(file.id)) {
      const targets = this.targets(row);
      if (targets.includes(defPath)) return { import: row, proximity: 'imports' };
      if (!reexport && targets.some((t) => this.reexports(t, undefined, defPath, MAX_REEXPORT_DEPTH, new Set()))) {
        reexport = { import: row, proximity: 're-export' };
      }
    }
    return reexport;
  }

  /**
   * Whether `path` passes `name` (any name when undefined) on from `defPath`: it re-exports it, or is an
   * `export *`/`__init__` barrel over it.
   */
  private reexports(path: string, name: string | undefined, defPath: string, depth: number, seen: Set<string>): boolean {
    if (path === defPath) return true;
    if (depth === 0 || seen.has(path)) return false;
    seen.add(path);
    const file = this.byPath.get(path);
    if (!file) return false;
    return this.importsOf(file.id).some((row) =>
      (name === undefined || row.names.length === 0 || row.names.includes(name)) && this.targets(row).some((t) => this.reexports(t, name, defPath, depth - 1, seen)));
  }

  /** Names `path` defines at top level (cached). */
  topLevelNames(path: string): Set<string> {
    let names = this.topLevel.get(path);
    if (!names) {
      const file = this.byPath.get(path);
      names = new Set(file ? this.db.all('SELECT name FROM symbols WHERE file_id = ? AND container IS NULL', [file.id]).map((r) => String(r.name)) : []);
      this.topLevel.set(path, names);
    }
    return names;
  }

  /** Import statements that resolve to `path` directly. */
  rowsTargeting(path: string): ImportRow[] {
    if (!this.byTarget) {
      this.byTarget = new Map();
      for (const rows of this.imports.values()) {
        for (const row of rows) {
          for (const target of this.targets(row)) {
            const list = this.byTarget.get(target);
            if (list) list.push(row);
            else this.byTarget.set(target, [row]);
          }
        }
      }
    }
    return this.byTarget.get(path) ?? [];
  }

  /** Import statements that list `name`. */
  rowsNaming(name: string): ImportRow[] {
    const out: ImportRow[] = [];
    for (const rows of this.imports.values()) for (const row of rows) if (row.names.includes(name)) out.push(row);
    return out;
  }

  /** How many files import `path` (directly): a tie-breaker between equally good definitions. */
  importerCount(path: string): number {
    return new Set(this.rowsTargeting(path).map((r) => r.fileId)).size;
  }

  /** Whether a name defined once may be trusted in `file` without an import link. */
  /**
   * C# sees the names of its own namespace and of the namespaces enclosing it without a `using`, and the names of a
   * namespace it opens with `using A.B;` (a namespace is no file, so the import resolves to no path).
   */
  private namespaceLink(file: IndexedFile, defFile: IndexedFile): FileLink | undefined {
    const defined = this.namespacesOf(defFile.id);
    if (!defined.length) return undefined;
    if (this.namespacesOf(file.id).some((n) => defined.some((d) => n === d || n.startsWith(`${d}.`)))) return { proximity: 'same-package' };
    const using = this.importsOf(file.id).find((row) => row.names.length === 0 && defined.includes(row.source));
    return using ? { import: using, proximity: 'imports' } : undefined;
  }

  private namespacesOf(fileId: number): string[] {
    if (!this.namespaces) {
      this.namespaces = new Map();
      const rows = this.db.all("SELECT s.file_id, s.qualified_name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.language = 'csharp' AND s.kind = 'module'");
      for (const r of rows) {
        const id = Number(r.file_id);
        this.namespaces.set(id, [...(this.namespaces.get(id) ?? []), String(r.qualified_name)]);
      }
    }
    return this.namespaces.get(fileId) ?? [];
  }

  trustsUniqueName(file: IndexedFile, name: string): boolean {
    if (RESOLVED_LANGUAGES.has(file.language)) return false;
    // An import that names it from somewhere we could not resolve means some other definition.
    return !this.importsOf(file.id).some((row) => row.names.includes(name));
  }
}
