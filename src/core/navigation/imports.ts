/**
 * Import resolution: which workspace files an import statement brings in, per language. Unresolved (external)
 * imports give no files. Go imports name a package, so they resolve to every file of its directory.
 */
import { resolveRelative } from '../index/paths';
import type { IndexDatabase } from '../store/database';

export interface IndexedFile {
  id: number;
  path: string;
  language: string;
}

export interface ImportRow {
  fileId: number;
  source: string;
  names: string[];
  line: number;
}

const TS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_LIKE = new Set(['typescript', 'tsx', 'javascript', 'jsx']);

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export class ImportResolver {
  private readonly paths: Set<string>;
  private readonly filesByDir = new Map<string, string[]>();
  private readonly pythonModules = new Map<string, string[]>();
  /** See lastSegments(). */
  private segments: Map<string, string[]> | undefined;
  /** Crate name → its `src` folder and that folder's place in index order (see crateDir). */
  private crates: { anywhere: Map<string, { dir: string; order: number }>; atRoot: Map<string, { dir: string; order: number }> } | undefined;

  /** `goModule` is the root go.mod's module path, when there is one. */
  constructor(files: IndexedFile[], private readonly goModule?: string) {
    this.paths = new Set(files.map((f) => f.path));
    for (const f of files) {
      const dir = dirOf(f.path);
      const list = this.filesByDir.get(dir);
      if (list) list.push(f.path);
      else this.filesByDir.set(dir, [f.path]);
    }
    for (const f of files) if (f.language === 'python') this.registerPythonModule(f.path);
  }

  static load(db: IndexDatabase, goModule?: string): ImportResolver {
    const files = db.all('SELECT id, path, language FROM files').map((r) => ({ id: Number(r.id), path: String(r.path), language: String(r.language) }));
    return new ImportResolver(files, goModule);
  }

  /** Workspace files brought in by `source` imported from `from`; empty when external or unknown. */
  resolve(from: IndexedFile, source: string): string[] {
    if (JS_LIKE.has(from.language)) return this.resolveScript(from.path, source);
    switch (from.language) {
      case 'python': return this.resolvePython(from.path, source);
      case 'go': return this.resolveGo(source);
      case 'rust': return this.resolveRust(from.path, source);
      // `use A\B\C`: PSR-4 lays class A\B\C out as …/A/B/C.php.
      case 'php': return this.resolveBySuffix(from.path, source.replace(/\\/g, '/'));
      default: return this.resolveBySuffix(from.path, source);
    }
  }

  /**
   * What resolve() reads of `from` besides the source: its language and folder, and for Rust its file name too (which
   * tells a module's own folder). Files of one scope resolve every source alike.
   */
  scopeOf(from: IndexedFile): string {
    return `${from.language}\0${from.language === 'rust' ? from.path : dirOf(from.path)}`;
  }

  /** Files in the same directory: Go and Java packages see each other's names without imports. */
  samePackage(a: string, b: string): boolean {
    return dirOf(a) === dirOf(b);
  }

  private firstExisting(candidates: string[]): string[] {
    const hit = candidates.find((c) => this.paths.has(c));
    return hit ? [hit] : [];
  }

  private resolveScript(from: string, source: string): string[] {
    const base = source.startsWith('.') ? resolveRelative(dirOf(from), source) : resolveRelative('', source);
    if (base === undefined) return [];
    // TypeScript ESM code imports './x.js' for the file x.ts.
    const stem = base.replace(/\.(m|c)?js$/, '');
    const candidates = [base, ...TS_EXTENSIONS.map((e) => stem + e), ...TS_EXTENSIONS.map((e) => `${base}/index${e}`)];
    return this.firstExisting(candidates);
  }

  private registerPythonModule(path: string): void {
    const parts = path.replace(/\.pyi?$/, '').split('/');
    if (parts[parts.length - 1] === '__init__') parts.pop();
    // The canonical name starts at the topmost directory that is a package (has __init__.py); the full path
    // from the root is registered too, for namespace packages and scripts.
    let top = parts.length - 1;
    while (top > 0 && this.paths.has(`${parts.slice(0, top).join('/')}/__init__.py`)) top--;
    // Every suffix of two or more parts too: `src/` layouts and namespace packages (no __init__.py) hide the
    // canonical name from the rule above.
    const names = new Set([parts.slice(top).join('.'), parts.join('.')]);
    for (let i = 1; i < parts.length - 1; i++) names.add(parts.slice(i).join('.'));
    for (const name of names) {
      if (!name) continue;
      const list = this.pythonModules.get(name);
      if (list) list.push(path);
      else this.pythonModules.set(name, [path]);
    }
  }

  private resolvePython(from: string, source: string): string[] {
    const dots = /^\.*/.exec(source)![0].length;
    const rest = source.slice(dots);
    if (!dots) return this.pythonModules.get(rest) ?? [];
    let base: string | undefined = dirOf(from);
    for (let i = 1; i < dots && base !== undefined; i++) base = base ? dirOf(base) : undefined;
    if (base === undefined) return [];
    const target = rest ? resolveRelative(base, rest.replace(/\./g, '/')) : base;
    if (target === undefined) return [];
    return this.firstExisting([`${target}.py`, `${target}.pyi`, `${target}/__init__.py`, `${target}/__init__.pyi`].map((p) => p.replace(/^\//, '')));
  }

  private resolveGo(source: string): string[] {
    let dir: string | undefined;
    if (this.goModule && (source === this.goModule || source.startsWith(`${this.goModule}/`))) {
      dir = source.slice(this.goModule.length + 1);
    } else if (source.split('/')[0]!.includes('.')) {
      // Not the root module: match the longest directory suffix (vendored or nested modules).
      const segs = source.split('/');
      for (let i = 1; i < segs.length && dir === undefined; i++) {
        const candidate = segs.slice(i).join('/');
        if (this.filesByDir.has(candidate)) dir = candidate;
      }
    }
    if (dir === undefined) return [];
    return (this.filesByDir.get(dir) ?? []).filter((p) => p.endsWith('.go'));
  }

  private resolveRust(from: string, source: string): string[] {
    const segs = source.split('::').filter(Boolean);
    const srcAt = from.lastIndexOf('/src/');
    const crateRoot = from.startsWith('src/') ? 'src' : srcAt >= 0 ? from.slice(0, srcAt + 4) : dirOf(from);
    let dir: string;
    const head = segs[0];
    if (head === 'crate') {
      dir = crateRoot;
      segs.shift();
    } else if (head === 'super' || head === 'self') {
      // The module of `from` is its path without `.rs` (or its directory for mod.rs/lib.rs/main.rs).
      const own = /\/(mod|lib|main)\.rs$/.test(`/${from}`) ? dirOf(from) : from.replace(/\.rs$/, '');
      dir = own;
      while (segs[0] === 'super' || segs[0] === 'self') if (segs.shift() === 'super') dir = dirOf(dir);
    } else {
      // Another crate of the workspace: a directory named like it with a src/ folder.
      const crateDir = head === undefined ? undefined : this.crateDir(head);
      if (!crateDir) return [];
      dir = crateDir;
      segs.shift();
    }
    // The last segments may be items rather than modules: try the longest module path first.
    for (let n = segs.length; n >= 0; n--) {
      const mod = [dir, ...segs.slice(0, n)].filter(Boolean).join('/');
      const hit = n === 0
        ? this.firstExisting([`${mod}/lib.rs`, `${mod}/main.rs`, `${mod}/mod.rs`, `${mod}.rs`])
        : this.firstExisting([`${mod}.rs`, `${mod}/mod.rs`]);
      if (hit.length) return hit;
    }
    return [];
  }

  /**
   * The first folder (in index order) that is `<name>/src` anywhere, or `<name with - for _>/src` at the root.
   * Indexed on first use rather than found by scanning every folder per `use` line.
   */
  private crateDir(name: string): string | undefined {
    const atRootName = name.replace(/_/g, '-');
    if (name.includes('/')) return [...this.filesByDir.keys()].find((d) => d === `${name}/src` || d.endsWith(`/${name}/src`) || d === `${atRootName}/src`);
    if (!this.crates) {
      const anywhere = new Map<string, { dir: string; order: number }>();
      const atRoot = new Map<string, { dir: string; order: number }>();
      let order = 0;
      for (const d of this.filesByDir.keys()) {
        order++;
        const parts = d.split('/');
        if (parts.length < 2 || parts[parts.length - 1] !== 'src') continue;
        const crate = parts[parts.length - 2]!;
        if (!anywhere.has(crate)) anywhere.set(crate, { dir: d, order });
        if (parts.length === 2 && !atRoot.has(crate)) atRoot.set(crate, { dir: d, order });
      }
      this.crates = { anywhere, atRoot };
    }
    const nested = this.crates.anywhere.get(name);
    const root = this.crates.atRoot.get(atRootName);
    return nested && (!root || nested.order <= root.order) ? nested.dir : root?.dir;
  }

  /** Java, Kotlin, C and others: a dotted or slashed path matched against file paths, nearest first. */
  private resolveBySuffix(from: string, source: string): string[] {
    const rel = source.includes('/') || /\.(h|hh|hpp|hxx)$/.test(source) ? source : source.replace(/\./g, '/');
    const local = resolveRelative(dirOf(from), rel);
    if (local !== undefined && this.paths.has(local)) return [local];
    const hit = this.bySuffix(rel);
    return hit === undefined ? [] : [hit];
  }

  /**
   * The first file in index order whose path, or path without its extension, is `rel` or ends with `/rel`. Such a
   * file's last segment is rel's, so only the files filed under that segment are tried: an index of every suffix of
   * every path cost a tenth of the warm-up at 124k files, most of it for suffixes no import names.
   */
  private bySuffix(rel: string): string | undefined {
    const tail = `/${rel}`;
    for (const p of this.lastSegments().get(lastSegment(rel)) ?? []) {
      const stem = p.replace(/\.[^./]+$/, '');
      if (p === rel || p.endsWith(tail) || stem === rel || stem.endsWith(tail)) return p;
    }
    return undefined;
  }

  /** Files by the last segment of their path and of their path without its extension, in index order; built on first use. */
  private lastSegments(): Map<string, string[]> {
    if (this.segments) return this.segments;
    const index = new Map<string, string[]>();
    const add = (key: string, path: string): void => {
      const list = index.get(key);
      if (!list) index.set(key, [path]);
      else if (list[list.length - 1] !== path) list.push(path);
    };
    for (const p of this.paths) {
      add(lastSegment(p), p);
      add(lastSegment(p.replace(/\.[^./]+$/, '')), p);
    }
    return (this.segments = index);
  }
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The module path declared by the workspace root's go.mod, if any. */
export function goModulePath(goMod: string | undefined): string | undefined {
  return goMod ? /^\s*module\s+(\S+)/m.exec(goMod)?.[1] : undefined;
}
