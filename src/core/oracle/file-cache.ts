/**
 * Workspace files as lines, read once per question through the FileSystem port. Every excerpt and every citation is
 * cut from these lines, so what the answer quotes is what the file holds now, not what the index saw.
 */
import { decodeText } from '../index/content';
import { joinPath } from '../index/paths';
import type { FileSystem } from '../ports';

export interface FileCache {
  /** Lines of a workspace-relative file (no line terminators), or undefined when it cannot be read. */
  lines(path: string): Promise<string[] | undefined>;
  /** Modification time on disk, or undefined when the file is gone. */
  mtime(path: string): Promise<number | undefined>;
}

const MAX_BYTES = 2 * 1024 * 1024;

export function createFileCache(root: string, fs: FileSystem): FileCache {
  const texts = new Map<string, Promise<string[] | undefined>>();
  const times = new Map<string, Promise<number | undefined>>();
  const abs = (path: string): string => joinPath(root, path);
  return {
    lines(path) {
      let got = texts.get(path);
      if (!got) {
        got = (async () => {
          try {
            const st = await fs.stat(abs(path));
            if (!st.isFile || st.size > MAX_BYTES) return undefined;
            return decodeText(await fs.readFile(abs(path))).text.split(/\r?\n/);
          } catch {
            return undefined;
          }
        })();
        texts.set(path, got);
      }
      return got;
    },
    mtime(path) {
      let got = times.get(path);
      if (!got) {
        got = fs.stat(abs(path)).then((s) => s.mtimeMs, () => undefined);
        times.set(path, got);
      }
      return got;
    },
  };
}
