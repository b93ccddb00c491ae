/** Small helpers over the FileSystem port for workspace-relative POSIX paths. Missing files are undefined, not errors. */
import { joinPath, normaliseRelative } from '../index/paths';
import type { FileStat, FileSystem } from '../ports';
import { walkTree, type WalkRules } from '../workspace/walk';

export function absolute(root: string, rel: string): string {
  return rel.split('/').filter(Boolean).reduce((acc, part) => joinPath(acc, part), root);
}

export async function statRel(fs: FileSystem, root: string, rel: string): Promise<FileStat | undefined> {
  const norm = normaliseRelative(rel);
  if (norm === undefined) return undefined;
  try {
    return await fs.stat(absolute(root, norm));
  } catch {
    return undefined;
  }
}

export async function readTextRel(fs: FileSystem, root: string, rel: string): Promise<string | undefined> {
  const norm = normaliseRelative(rel);
  if (norm === undefined) return undefined;
  try {
    return new TextDecoder('utf-8').decode(await fs.readFile(absolute(root, norm)));
  } catch {
    return undefined;
  }
}

/** Names of the files in a workspace folder (not recursive); empty when the folder is absent. */
export async function listFiles(fs: FileSystem, root: string, relDir: string): Promise<string[]> {
  try {
    const entries = await fs.readDir(absolute(root, relDir));
    return entries.filter((e) => e.kind === 'file').map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/**
 * Files under a folder whose name passes `accept`, workspace-relative, as the index's walk finds them (.gitignore,
 * built-in and configured excludes), at most `limit`.
 */
export async function listTree(fs: FileSystem, root: string, rules: WalkRules, relDir: string, accept: (name: string) => boolean, limit = 5000): Promise<string[]> {
  const out: string[] = [];
  const from = normaliseRelative(relDir);
  if (from === undefined) return out;
  await walkTree(root, fs, rules, {
    wants: accept,
    file(rel) {
      if (!accept(rel.slice(rel.lastIndexOf('/') + 1))) return;
      out.push(rel);
      return out.length < limit;
    },
  }, { from });
  return out;
}

export function listMarkdown(fs: FileSystem, root: string, rules: WalkRules, relDir: string, limit = 5000): Promise<string[]> {
  return listTree(fs, root, rules, relDir, (name) => /\.(md|markdown)$/i.test(name), limit);
}

/** `file:mtime:size` — changes whenever the file is edited, replaced or removed. */
export function stampOf(rel: string, stat: FileStat | undefined): string {
  return stat ? `${rel}:${stat.mtimeMs}:${stat.size}` : `${rel}:-`;
}
