/**
 * Which workspace paths the engine leaves alone: the built-in folders (.git, node_modules, …), the configured
 * `exclude` globs and, when `respectGitignore`, every .gitignore from the root down. Written once here so the index,
 * the docs and the graph agree on which files exist (the walk in `walk.ts` and the index's targeted check of queued
 * paths both use it).
 */
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { BUILTIN_EXCLUDES } from '../config';
import { decodeText } from '../index/content';
import { joinPath } from '../index/paths';
import type { FileSystem } from '../ports';

/** The part of the engine's configuration that decides which files exist. */
export interface WalkRules {
  exclude: readonly string[];
  respectGitignore: boolean;
}

/** One folder's .gitignore, matched against paths relative to that folder (`dir` is workspace-relative). */
export interface IgnoreLayer {
  dir: string;
  matcher: Ignore;
}

/** A folder name the engine never enters, whatever the configuration. */
export function isBuiltinExclude(name: string): boolean {
  return BUILTIN_EXCLUDES.includes(name);
}

/** The configured globs as one test; a folder is tested as `path` and `path/`. */
export function excludeMatcher(rules: WalkRules): (rel: string, isDir: boolean) => boolean {
  if (!rules.exclude.length) return () => false;
  const matches = picomatch([...rules.exclude], { dot: true });
  return (rel, isDir) => matches(rel) || (isDir && matches(`${rel}/`));
}

/** The .gitignore of folder `dirAbs` (workspace-relative `rel`), or undefined when there is none or it is not wanted. */
export async function loadIgnoreLayer(fs: FileSystem, rules: WalkRules, dirAbs: string, rel: string): Promise<IgnoreLayer | undefined> {
  if (!rules.respectGitignore) return undefined;
  try {
    return { dir: rel, matcher: ignore().add(decodeText(await fs.readFile(joinPath(dirAbs, '.gitignore'))).text) };
  } catch {
    return undefined;
  }
}

/** `rel` (a folder when `isDir`) is ignored by one of the layers above it. */
export function ignoredBy(layers: readonly IgnoreLayer[], rel: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const sub = layer.dir ? rel.slice(layer.dir.length + 1) : rel;
    if (sub && layer.matcher.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}
