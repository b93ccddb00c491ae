/** Workspace files as lines for previews, once per file per request (the engine's one reader, workspace/file-lines.ts). */
import type { FileSystem } from '../ports';
import { createFileLines, type FileLines } from '../workspace/file-lines';

export interface LineReader extends Pick<FileLines, 'lines'> {
  /** The trimmed text of a 1-based line, cut to 200 characters; '' when unavailable. */
  line(path: string, line: number): Promise<string>;
}

export function createLineReader(fs: FileSystem, root: string): LineReader {
  const { lines } = createFileLines(root, fs);
  return {
    lines,
    async line(path, line) {
      const text = (await lines(path))?.[line - 1]?.trim() ?? '';
      return text.length > 200 ? `${text.slice(0, 199)}…` : text;
    },
  };
}
