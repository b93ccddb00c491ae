/**
 * Path helpers. `joinPath` and `isInside` work on absolute OS paths (POSIX or Windows separators); workspace-relative
 * paths are POSIX and joined here, once, with `path.posix`.
 */
import { posix } from 'node:path';

export function joinPath(dir: string, name: string): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

const normalised = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');

export function isInside(root: string, candidate: string): boolean {
  const r = normalised(root);
  const c = normalised(candidate);
  return c === r || c.startsWith(`${r}/`);
}

/** `candidate` (inside `root`, see isInside) relative to `root` with '/' separators; '.' for the root itself. */
export function relativeInside(root: string, candidate: string): string {
  const r = normalised(root);
  const c = normalised(candidate);
  return c === r ? '.' : c.slice(r.length + 1);
}

/**
 * Bounds for `path > ? AND path < ?` that select every workspace-relative path under folder `path` ('0' is the
 * character after '/', so the range holds exactly the paths starting with `path/`).
 */
export function folderRange(path: string): [string, string] {
  return [`${path}/`, `${path}0`];
}

/**
 * `rel` taken from workspace-relative folder `base` ('' for the root), `.` and `..` resolved, no leading or trailing
 * slash; undefined when it climbs above the root.
 */
export function resolveRelative(base: string, rel: string): string | undefined {
  const joined = posix.normalize(posix.join(base, rel)).replace(/^\/+|\/+$/g, '');
  if (joined === '..' || joined.startsWith('../')) return undefined;
  return joined === '.' ? '' : joined;
}

/** Normalises a user-given workspace-relative path (either separator); undefined when it escapes the root. */
export function normaliseRelative(path: string): string | undefined {
  return resolveRelative('', path.replace(/\\/g, '/'));
}
