/**
 * Resolves an import as written (`./util`, `app.models`, `github.com/x/y/pkg`, `com.acme.Foo`) to an indexed file,
 * by relative path for relative imports and by path suffix otherwise. Unresolvable imports (third-party packages)
 * give undefined: they cannot point at a node of this workspace.
 */
import { resolveRelative } from '../index/paths';

const CODE_EXT = /\.(tsx?|mts|cts|jsx?|mjs|cjs|py|pyi|go|rs|java|kt|kts|swift|m|mm|c|h|cc|cpp|cxx|hpp|hh|hxx)$/;
const INDEX_NAMES = ['index', '__init__', 'mod', 'lib'];

export class ImportResolver {
  /** Extension-less path suffix → files with it (e.g. `models/user` → [`app/models/user.py`]). */
  private readonly bySuffix = new Map<string, string[]>();
  /** Folder path suffix → one file in that folder. */
  private readonly byDirSuffix = new Map<string, string>();
  private readonly memo = new Map<string, string | undefined>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      const parts = path.replace(CODE_EXT, '').split('/');
      if (INDEX_NAMES.includes(parts[parts.length - 1]!) && parts.length > 1) this.add(parts.slice(0, -1), path);
      this.add(parts, path);
      const dir = path.split('/').slice(0, -1);
      for (let i = 0; i < dir.length; i++) {
        const key = dir.slice(i).join('/');
        if (!this.byDirSuffix.has(key)) this.byDirSuffix.set(key, path);
      }
    }
  }

  private add(parts: string[], path: string): void {
    for (let i = 0; i < parts.length; i++) {
      const key = parts.slice(i).join('/');
      const list = this.bySuffix.get(key);
      if (!list) this.bySuffix.set(key, [path]);
      else if (!list.includes(path)) list.push(path);
    }
  }

  resolve(fromFile: string, source: string): string | undefined {
    const key = `${fromFile}\u0000${source}`;
    if (this.memo.has(key)) return this.memo.get(key);
    const found = this.lookup(fromFile, source.trim().replace(/^['"<]|['">]$/g, ''));
    this.memo.set(key, found);
    return found;
  }

  private lookup(fromFile: string, spec: string): string | undefined {
    if (!spec) return undefined;
    const dir = fromFile.split('/').slice(0, -1);
    if (spec.startsWith('./') || spec.startsWith('../')) return this.exact(resolveRelative(dir.join('/'), spec.replace(CODE_EXT, '')));
    const pyRel = /^(\.+)(.*)$/.exec(spec);
    if (pyRel) {
      const up = pyRel[1]!.length - 1;
      const base = up > dir.length ? undefined : dir.slice(0, dir.length - up);
      return base ? this.exact(resolveRelative(base.join('/'), pyRel[2]!.replace(/\./g, '/'))) : undefined;
    }
    const slashed = spec.includes('/') ? spec.replace(CODE_EXT, '') : spec.replace(/::/g, '/').replace(/\./g, '/').replace(/^(crate|self|super)\//, '');
    // Longest suffix first. Go imports name a package (a folder), so folders count too. One-segment suffixes
    // other than the whole import are too generic (`utils`) to trust.
    const segs = slashed.split('/');
    for (let i = 0; i < segs.length; i++) {
      if (i > 0 && segs.length - i < 2) break;
      const suffix = segs.slice(i).join('/');
      const files = this.bySuffix.get(suffix);
      if (files?.length) return files.find((f) => !/(^|\/)tests?\//.test(f)) ?? files[0];
      const inDir = this.byDirSuffix.get(suffix);
      if (inDir) return inDir;
    }
    return undefined;
  }

  private exact(path: string | undefined): string | undefined {
    if (path === undefined) return undefined;
    const files = this.bySuffix.get(path);
    return files?.find((f) => f.replace(CODE_EXT, '') === path || f.replace(CODE_EXT, '').startsWith(`${path}/`));
  }
}
