/**
 * Import links between workspace files for the context graph: every import resolved to indexed files, kept by path
 * (who imports whom), so a commit that rewrites a file re-resolves that file's imports only. Ids change on every
 * rewrite; paths do not.
 */
import type { IndexDatabase } from '../store/database';
import { ImportResolver, type IndexedFile } from '../navigation/imports';
import type { FileFact } from './db-facts';

/** An import resolving to more files than this (a whole package) says little about any one of them. */
const MAX_IMPORT_TARGETS = 3;
/** Files per `IN (…)` list. */
const IN_LIST = 500;

export class ImportLinks {
  /** Path → paths its imports resolve to. */
  private readonly out = new Map<string, Set<string>>();
  private links: Map<number, Set<number>> | undefined;

  /**
   * The files the links were first resolved against, in that order (resolution prefers the earlier of two): by path,
   * not by id, so that an index caught up with a checkout resolves as a fresh one does.
   */
  private constructor(private readonly known: IndexedFile[]) {}

  /** Resolves every import of the index. */
  static load(db: IndexDatabase, files: Map<number, FileFact>): ImportLinks {
    const made = new ImportLinks(knownFiles(files));
    const resolve = resolving(new ImportResolver(made.known));
    db.each('SELECT DISTINCT file_id, source FROM imports', [], (row) => made.resolveRow(resolve, row, files));
    return made;
  }

  /**
   * The links saved() gave for the same files (context/saved-facts.ts). Throws on a file id the files do not have.
   */
  static fromSaved(files: Map<number, FileFact>, { from, at, to }: SavedLinks): ImportLinks {
    const made = new ImportLinks(knownFiles(files));
    const path = (id: number): string => {
      const f = files.get(id);
      if (!f) throw new Error(`saved import links name file ${id}, which the index does not have`);
      return f.path;
    };
    if (at.length !== from.length + 1 || at[from.length] !== to.length) throw new Error('saved import links are not whole');
    for (let i = 0; i < from.length; i++) {
      const targets = new Set<string>();
      for (let j = at[i]!; j < at[i + 1]!; j++) targets.add(path(to[j]!));
      made.out.set(path(from[i]!), targets);
    }
    return made;
  }

  /** The links by file id, to save beside the index; undefined when a path is not one of the files (never expected). */
  saved(byPath: Map<string, FileFact>): SavedLinks | undefined {
    const from = new Int32Array(this.out.size);
    const at = new Int32Array(this.out.size + 1);
    const to: number[] = [];
    let i = 0;
    for (const [path, targets] of this.out) {
      const f = byPath.get(path);
      if (!f) return undefined;
      from[i] = f.id;
      for (const t of targets) {
        const g = byPath.get(t);
        if (!g) return undefined;
        to.push(g.id);
      }
      at[++i] = to.length;
    }
    return { from, at, to: Int32Array.from(to) };
  }

  /**
   * After a commit that kept the set of paths (files rewritten, none added or removed): only the rewritten files'
   * own imports can resolve differently, so only theirs are read again.
   */
  update(db: IndexDatabase, files: Map<number, FileFact>, rewritten: number[]): void {
    for (const id of rewritten) {
      const f = files.get(id);
      if (f) this.out.delete(f.path);
    }
    // The resolver's tables (~6 MB at 10k files) are rebuilt for the few files a commit rewrites rather than kept.
    const resolve = resolving(new ImportResolver(this.known));
    for (let i = 0; i < rewritten.length; i += IN_LIST) {
      const part = rewritten.slice(i, i + IN_LIST);
      db.each(`SELECT DISTINCT file_id, source FROM imports WHERE file_id IN (${part.map(() => '?').join(',')})`, part, (row) => this.resolveRow(resolve, row, files));
    }
    this.links = undefined;
  }

  /** Undirected links by file id (a imports b, or b imports a), built from the paths on first use after a change. */
  byId(byPath: Map<string, FileFact>): Map<number, Set<number>> {
    if (this.links) return this.links;
    const links = new Map<number, Set<number>>();
    const link = (a: number, b: number): void => {
      if (a === b) return;
      let set = links.get(a);
      if (!set) links.set(a, (set = new Set()));
      set.add(b);
    };
    for (const [from, targets] of this.out) {
      const a = byPath.get(from);
      if (!a) continue;
      for (const t of targets) {
        const b = byPath.get(t);
        if (!b) continue;
        link(a.id, b.id);
        link(b.id, a.id);
      }
    }
    return (this.links = links);
  }

  private resolveRow(resolve: Resolve, [fileId, source]: unknown[], files: Map<number, FileFact>): void {
    const from = files.get(Number(fileId));
    if (!from) return;
    const targets = resolve(from, String(source));
    if (!targets.length || targets.length > MAX_IMPORT_TARGETS) return;
    let set = this.out.get(from.path);
    if (!set) this.out.set(from.path, (set = new Set()));
    for (const t of targets) set.add(t);
  }
}

/** Each importing file (in the order resolved) and the files its imports resolve to: `to[at[i]]` up to `to[at[i + 1]]`. */
export interface SavedLinks {
  from: Int32Array;
  at: Int32Array;
  to: Int32Array;
}

/** The files in path order (resolution prefers the earlier of two). */
function knownFiles(files: Map<number, FileFact>): IndexedFile[] {
  const known = [...files.values()].map((f) => ({ id: f.id, path: f.path, language: f.language }));
  return known.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

type Resolve = (from: FileFact, source: string) => readonly string[];

/**
 * The resolver's answers, each worked out once per scope (ImportResolver.scopeOf: a folder's files import the same
 * modules) and source: at 124k files 568k imports are 251k resolutions.
 */
function resolving(resolver: ImportResolver): Resolve {
  // By scope, then by source: no key is built per row (a scope is a language and a folder path: long strings).
  const known = new Map<string, Map<string, readonly string[]>>();
  // A file's imports come together: its scope is looked up once per run of them.
  let last: FileFact | undefined;
  let file: IndexedFile = { id: -1, path: '', language: '' };
  let inScope = new Map<string, readonly string[]>();
  return (from, source) => {
    if (from !== last) {
      last = from;
      file = { id: from.id, path: from.path, language: from.language };
      const scope = resolver.scopeOf(file);
      const got = known.get(scope);
      if (got) inScope = got;
      else known.set(scope, (inScope = new Map()));
    }
    let targets = inScope.get(source);
    if (!targets) inScope.set(source, (targets = resolver.resolve(file, source)));
    return targets;
  };
}
