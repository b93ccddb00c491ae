/**
 * Workspace files as lines, read once per request through the FileSystem port: the one line reader behind the
 * oracle's excerpts and citations (oracle/file-cache.ts) and navigation's previews (navigation/source-lines.ts).
 * Bytes are decoded as the index decodes them (index/content.ts decodeText), so a line number means the same line
 * everywhere.
 */
import { decodeText } from '../index/content';
import { joinPath } from '../index/paths';
import type { FileSystem } from '../ports';

export interface FileLines {
  /** Lines of a workspace-relative file (no line terminators), or undefined when it cannot be read. */
  lines(path: string): Promise<string[] | undefined>;
  /** Modification time on disk, or undefined when the file is gone. */
  mtime(path: string): Promise<number | undefined>;
}

/** `maxBytes`: larger files (or anything not a file) give no lines; without it every readable file is read. */
export function createFileLines(root: string, fs: FileSystem, options: { maxBytes?: number } = {}): FileLines {
  const texts = new Map<string, Promise<string[] | undefined>>();
  const times = new Map<string, Promise<number | undefined>>();
  const abs = (path: string): string => joinPath(root, path);
  async function read(path: string): Promise<string[] | undefined> {
    try {
      if (options.maxBytes !== undefined) {
        const st = await fs.stat(abs(path));
        if (!st.isFile || st.size > options.maxBytes) return undefined;
      }
      return decodeText(await fs.readFile(abs(path))).text.split(/\r?\n/);
    } catch {
      return undefined;
    }
  }
  return {
    lines(path) {
      let got = texts.get(path);
      if (!got) texts.set(path, (got = read(path)));
      return got;
    },
    mtime(path) {
      let got = times.get(path);
      if (!got) times.set(path, (got = fs.stat(abs(path)).then((s) => s.mtimeMs, () => undefined)));
      return got;
    },
  };
}
