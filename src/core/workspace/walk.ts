/**
 * The one walk over a workspace's files: the index, the oracle's docs and the graph (doc folders, schema files)
 * all see the same files. It applies the ignore chain (ignore-chain.ts), follows symlinks only while they stay
 * inside the root, breaks symlink loops, and visits each folder's entries in name order. What a caller does with a
 * file (the index: language, size, counts; docs: markdown only) is its visitor's business.
 */
import { joinPath, isInside, relativeInside } from '../index/paths';
import type { FileStat, FileSystem } from '../ports';
import { excludeMatcher, ignoredBy, isBuiltinExclude, loadIgnoreLayer, type IgnoreLayer, type WalkRules } from './ignore-chain';

export type { WalkRules } from './ignore-chain';

/** Why the walk passed over a path (folders and files alike). */
export type WalkSkip = 'gitignored' | 'excluded' | 'unreadable' | 'outside_workspace' | 'symlink_loop';

export interface WalkVisitor {
  /** A file of this name may be wanted: its stat is asked for with the rest of its folder, all at once. */
  wants(name: string): boolean;
  /**
   * A file the rules let through, workspace-relative; `stat` gives its stat (rejecting when it vanished). Returning
   * false ends the walk.
   */
  file(rel: string, abs: string, stat: () => Promise<FileStat>): Promise<boolean | void> | boolean | void;
  skip?(reason: WalkSkip, rel: string, detail?: string): void;
}

export interface WalkOptions {
  /** Workspace-relative folder to walk instead of the whole root (the .gitignore files above it still apply). */
  from?: string;
  signal?: AbortSignal;
}

export async function walkTree(root: string, fs: FileSystem, rules: WalkRules, visitor: WalkVisitor, options: WalkOptions = {}): Promise<void> {
  const excluded = excludeMatcher(rules);
  const rootReal = await fs.realPath(root);
  const seenDirs = new Set<string>([rootReal]);
  let stopped = false;

  async function visit(dirAbs: string, rel: string, inherited: IgnoreLayer[]): Promise<void> {
    if (options.signal?.aborted || stopped) return;
    const own = await loadIgnoreLayer(fs, rules, dirAbs, rel);
    const layers = own ? [...inherited, own] : inherited;
    let entries;
    try {
      entries = await fs.readDir(dirAbs);
    } catch (e) {
      visitor.skip?.('unreadable', rel || '.', e instanceof Error ? e.message : String(e));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // A folder's stats and real paths are asked for all at once and used in order: one at a time, the index's walk
    // spent most of its 1.2 s (9.5k files) waiting on each round trip to the file system.
    const stats = new Map<string, Promise<FileStat>>();
    const reals = new Map<string, Promise<string>>();
    for (const entry of entries) {
      const childAbs = joinPath(dirAbs, entry.name);
      if (entry.kind === 'file' && visitor.wants(entry.name)) {
        const st = fs.stat(childAbs);
        st.catch(() => undefined); // read (or not) in order below; never an unhandled rejection
        stats.set(entry.name, st);
      } else if (entry.kind === 'dir' && !isBuiltinExclude(entry.name)) reals.set(entry.name, fs.realPath(childAbs).catch(() => childAbs));
    }
    for (const entry of entries) {
      if (stopped || options.signal?.aborted) return;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = joinPath(dirAbs, entry.name);
      let kind = entry.kind;
      if (kind === 'dir' && isBuiltinExclude(entry.name)) continue;
      if (kind === 'symlink') {
        // Follow links only when they stay inside the workspace; a directory seen before is a loop.
        let real: string;
        try {
          real = await fs.realPath(childAbs);
        } catch {
          visitor.skip?.('unreadable', childRel, 'dangling symlink');
          continue;
        }
        if (!isInside(rootReal, real)) { visitor.skip?.('outside_workspace', childRel, real); continue; }
        const st = await fs.stat(real).catch(() => undefined);
        if (!st) { visitor.skip?.('unreadable', childRel); continue; }
        kind = st.isDirectory ? 'dir' : st.isFile ? 'file' : 'other';
        if (kind === 'dir') {
          if (seenDirs.has(real)) { visitor.skip?.('symlink_loop', childRel, relativeInside(rootReal, real)); continue; }
          seenDirs.add(real);
        }
      } else if (kind === 'dir') {
        const real = await (reals.get(entry.name) ?? fs.realPath(childAbs).catch(() => childAbs));
        if (seenDirs.has(real)) { visitor.skip?.('symlink_loop', childRel, relativeInside(rootReal, real)); continue; }
        seenDirs.add(real);
      }
      if (kind === 'other') continue;
      const isDir = kind === 'dir';
      if (ignoredBy(layers, childRel, isDir)) { visitor.skip?.('gitignored', childRel); continue; }
      if (excluded(childRel, isDir)) { visitor.skip?.('excluded', childRel); continue; }
      if (isDir) {
        await visit(childAbs, childRel, layers);
        continue;
      }
      const stat = (): Promise<FileStat> => stats.get(entry.name) ?? fs.stat(childAbs);
      if ((await visitor.file(childRel, childAbs, stat)) === false) stopped = true;
    }
  }

  const from = (options.from ?? '').replace(/^\/+|\/+$/g, '');
  if (!from) return visit(root, '', []);
  // A folder below the root: the .gitignore files on the way down apply to it, and it must not be ignored itself.
  const parts = from.split('/');
  const layers: IgnoreLayer[] = [];
  let dirAbs = root;
  for (let depth = 0; depth < parts.length; depth++) {
    const dirRel = parts.slice(0, depth).join('/');
    const layer = await loadIgnoreLayer(fs, rules, dirAbs, dirRel);
    if (layer) layers.push(layer);
    const childRel = parts.slice(0, depth + 1).join('/');
    if (isBuiltinExclude(parts[depth]!) || ignoredBy(layers, childRel, true) || excluded(childRel, true)) return;
    dirAbs = joinPath(dirAbs, parts[depth]!);
  }
  const real = await fs.realPath(dirAbs).catch(() => undefined);
  if (!real || !isInside(rootReal, real)) return;
  seenDirs.add(real);
  return visit(dirAbs, from, layers);
}
