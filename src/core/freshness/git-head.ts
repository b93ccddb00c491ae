/**
 * Reads the checked-out commit straight from `.git` through the FileSystem port (no `git` process): HEAD, the
 * branch ref it points to, or packed-refs. Worktrees (`.git` is a file with `gitdir:`) are followed.
 */
import { joinPath } from '../index/paths';
import type { FileSystem } from '../ports';

export interface GitHead {
  /** Branch name when HEAD is symbolic (`main`), absent when detached. */
  branch?: string;
  /** Full commit hash, when it could be resolved. */
  commit?: string;
}

const decoder = new TextDecoder();

async function readText(fs: FileSystem, abs: string): Promise<string | undefined> {
  try {
    return decoder.decode(await fs.readFile(abs)).trim();
  } catch {
    return undefined;
  }
}

async function gitDir(root: string, fs: FileSystem): Promise<string | undefined> {
  const dotGit = joinPath(root, '.git');
  const st = await fs.stat(dotGit).catch(() => undefined);
  if (!st) return undefined;
  if (st.isDirectory) return dotGit;
  const pointer = await readText(fs, dotGit);
  const m = pointer && /^gitdir:\s*(.+)$/m.exec(pointer);
  if (!m) return undefined;
  const target = m[1]!.trim();
  return target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) ? target : joinPath(root, target);
}

/** Undefined when the workspace is not a git checkout. */
export async function readGitHead(root: string, fs: FileSystem): Promise<GitHead | undefined> {
  const dir = await gitDir(root, fs);
  if (!dir) return undefined;
  const head = await readText(fs, joinPath(dir, 'HEAD'));
  if (!head) return undefined;
  const ref = /^ref:\s*(\S+)/.exec(head)?.[1];
  if (!ref) return /^[0-9a-f]{40,64}$/.test(head) ? { commit: head } : {};
  const branch = ref.replace(/^refs\/heads\//, '');
  const direct = await readText(fs, joinPath(dir, ref));
  if (direct && /^[0-9a-f]{40,64}$/.test(direct)) return { branch, commit: direct };
  // Refs of a worktree's main repository and packed refs live in the common dir.
  const common = (await readText(fs, joinPath(dir, 'commondir'))) ?? '.';
  const commonDir = common === '.' ? dir : common.startsWith('/') ? common : joinPath(dir, common);
  const looseInCommon = commonDir !== dir ? await readText(fs, joinPath(commonDir, ref)) : undefined;
  if (looseInCommon && /^[0-9a-f]{40,64}$/.test(looseInCommon)) return { branch, commit: looseInCommon };
  const packed = await readText(fs, joinPath(commonDir, 'packed-refs'));
  const line = packed?.split('\n').find((l) => l.endsWith(` ${ref}`));
  return line ? { branch, commit: line.split(' ')[0]! } : { branch };
}
