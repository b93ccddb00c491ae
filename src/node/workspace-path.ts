/**
 * Where a path really lands: symlinks followed with realpath, for the root as well as the target, so a path that reads
 * as inside the workspace (`linkout/secret.txt` with `linkout -> /outside`) is seen for what it is. One copy for every
 * host that takes paths from untrusted callers: the stdio MCP path guard, the panel's open requests, the in-editor MCP
 * endpoint's tools.
 */
import { promises as fsp } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface RealPath {
  /** Absolute path with every symlink resolved (for a missing path: its nearest existing ancestor's, plus the rest). */
  real: string;
  exists: boolean;
  isDirectory: boolean;
}

/** realpath of `abs`; for a path that does not exist, realpath of its nearest existing ancestor plus the rest. */
export async function realPathOf(abs: string): Promise<RealPath> {
  const rest: string[] = [];
  let at = abs;
  for (;;) {
    try {
      const real = await fsp.realpath(at);
      if (rest.length) return { real: join(real, ...rest.reverse()), exists: false, isDirectory: false };
      const st = await fsp.stat(real);
      return { real, exists: true, isDirectory: st.isDirectory() };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a file used as a folder; ELOOP: a symlink cycle; ENAMETOOLONG: a name no file system holds. All
      // mean "does not exist" for a filter.
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP' && code !== 'ENAMETOOLONG') throw e;
      const parent = dirname(at);
      if (parent === at) return { real: abs, exists: false, isDirectory: false };
      rest.push(basename(at));
      at = parent;
    }
  }
}

/** `real` relative to `rootReal` as a POSIX path ('' for the root itself), or undefined when it is outside. */
export function relativeInside(rootReal: string, real: string): string | undefined {
  const rel = relative(rootReal, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * A workspace-relative path resolved under `root` after following symlinks in both, or undefined when it lands
 * outside the root's real path. `rel` is the path's workspace-relative spelling after the links are followed.
 */
export async function resolveInsideRoot(root: string, path: string): Promise<(RealPath & { rel: string }) | undefined> {
  if (path.includes('\0')) return undefined;
  const absRoot = resolve(root);
  const rootReal = await fsp.realpath(absRoot).catch(() => undefined);
  if (!rootReal) return undefined;
  const target = await realPathOf(resolve(absRoot, path));
  const rel = relativeInside(rootReal, target.real);
  return rel === undefined ? undefined : { ...target, rel };
}
