/** Small helpers over the FileSystem port for workspace-relative POSIX paths. Missing files are undefined, not errors. */
import { joinPath, normaliseRelative } from '../index/paths';
import type { FileStat, FileSystem } from '../ports';

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

/** Files under a folder whose name passes `accept`, recursively (bounded, no dot-folders), workspace-relative. */
export async function listTree(fs: FileSystem, root: string, relDir: string, accept: (name: string) => boolean, limit = 5000): Promise<string[]> {
  const out: string[] = [];
  const queue = [relDir.replace(/\/+$/, '')];
  while (queue.length && out.length < limit) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = await fs.readDir(absolute(root, dir));
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.kind === 'dir' && !e.name.startsWith('.') && e.name !== 'node_modules') queue.push(rel);
      else if (e.kind === 'file' && accept(e.name)) out.push(rel);
    }
  }
  return out.slice(0, limit);
}

export function listMarkdown(fs: FileSystem, root: string, relDir: string, limit = 5000): Promise<string[]> {
  return listTree(fs, root, relDir, (name) => /\.(md|markdown)$/i.test(name), limit);
}

/** `file:mtime:size` — changes whenever the file is edited, replaced or removed. */
export function stampOf(rel: string, stat: FileStat | undefined): string {
  return stat ? `${rel}:${stat.mtimeMs}:${stat.size}` : `${rel}:-`;
}
