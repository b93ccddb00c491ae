/** Reads workspace files as lines for previews, once per file per request. A missing file gives no lines. */
import { joinPath } from '../index/paths';
import type { FileSystem } from '../ports';

export interface LineReader {
  lines(path: string): Promise<string[] | undefined>;
  /** The trimmed text of a 1-based line, cut to 200 characters; '' when unavailable. */
  line(path: string, line: number): Promise<string>;
}

export function createLineReader(fs: FileSystem, root: string): LineReader {
  const cache = new Map<string, Promise<string[] | undefined>>();
  const decoder = new TextDecoder();
  const lines = (path: string): Promise<string[] | undefined> => {
    let pending = cache.get(path);
    if (!pending) {
      pending = fs.readFile(joinPath(root, path)).then((b) => decoder.decode(b).split(/\r?\n/), () => undefined);
      cache.set(path, pending);
    }
    return pending;
  };
  return {
    lines,
    async line(path, line) {
      const text = (await lines(path))?.[line - 1]?.trim() ?? '';
      return text.length > 200 ? `${text.slice(0, 199)}…` : text;
    },
  };
}
