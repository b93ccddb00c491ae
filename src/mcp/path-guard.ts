/**
 * Path arguments from a model are untrusted: each is resolved inside the workspace root after following symlinks
 * (realpath), and anything that lands outside — `../` escapes, absolute paths elsewhere, symlinks pointing out — is
 * refused with invalid_input. What comes back is the workspace-relative POSIX path the engine speaks.
 */
import { promises as fsp } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { distance } from 'fastest-levenshtein';
import { realPathOf, relativeInside } from '../node/workspace-path';
import { quoteInput, ToolError } from './errors';

export interface GuardedPath {
  /** Workspace-relative POSIX path; '' is the root itself. */
  rel: string;
  exists: boolean;
  isDirectory: boolean;
}

export interface PathGuard {
  /** Absolute workspace root as given. */
  readonly root: string;
  /** Resolves `input` (relative to the root, or absolute) or throws invalid_input when it is outside the root. */
  resolve(input: string, argName: string): Promise<GuardedPath>;
  /** Like resolve, but a path that does not exist is not_found with the closest names in its folder. */
  resolveExisting(input: string, argName: string): Promise<GuardedPath>;
}

export function createPathGuard(root: string): PathGuard {
  const absRoot = resolve(root);
  let realRoot: Promise<string> | undefined;

  async function resolvePath(input: string, argName: string): Promise<GuardedPath & { real: string }> {
    if (input.includes('\0')) throw new ToolError('invalid_input', `\`${argName}\` contains a NUL character`);
    const trimmed = input.trim();
    realRoot ??= fsp.realpath(absRoot);
    const rootReal = await realRoot;
    const abs = isAbsolute(trimmed) ? resolve(trimmed) : resolve(absRoot, trimmed || '.');
    const { real, exists, isDirectory } = await realPathOf(abs);
    const rel = relativeInside(rootReal, real);
    if (rel === undefined) {
      throw new ToolError(
        'invalid_input',
        `\`${argName}\` must be inside the workspace ${absRoot}, but ${quoteInput(input)} resolves to ${quoteInput(real, 160)}; pass a path relative to the workspace root, e.g. "src"`,
      );
    }
    return { rel, exists, isDirectory, real };
  }

  return {
    root: absRoot,
    async resolve(input, argName) {
      const { rel, exists, isDirectory } = await resolvePath(input, argName);
      return { rel, exists, isDirectory };
    },
    async resolveExisting(input, argName) {
      const { rel, exists, isDirectory, real } = await resolvePath(input, argName);
      if (!exists) {
        throw new ToolError('not_found', `\`${argName}\` ${quoteInput(input)} does not exist in the workspace`, await siblingsLike(real, await realRoot!));
      }
      return { rel, exists, isDirectory };
    },
  };
}

/** Workspace-relative paths of the entries next to a missing path whose names are closest to it. */
async function siblingsLike(real: string, rootReal: string): Promise<string[]> {
  const parent = dirname(real);
  const want = basename(real).toLowerCase();
  const names = await fsp.readdir(parent).catch(() => [] as string[]);
  const relParent = relative(rootReal, parent).split(sep).join('/');
  if (relParent.startsWith('..')) return [];
  return names
    .filter((n) => !n.startsWith('.') && n !== 'node_modules')
    .map((n) => ({ n, d: distance(n.toLowerCase(), want) - (n.toLowerCase().includes(want) || want.includes(n.toLowerCase()) ? want.length : 0) }))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 5)
    .map(({ n }) => (relParent ? `${relParent}/${n}` : n));
}
