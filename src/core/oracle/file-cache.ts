/**
 * Workspace files as lines, read once per question. Every excerpt and every citation is cut from these lines, so
 * what the answer quotes is what the file holds now, not what the index saw. The reader is the engine's one
 * (workspace/file-lines.ts), capped at 2 MB a file.
 */
import type { FileSystem } from '../ports';
import { createFileLines, type FileLines } from '../workspace/file-lines';

export type FileCache = FileLines;

const MAX_BYTES = 2 * 1024 * 1024;

export function createFileCache(root: string, fs: FileSystem): FileCache {
  return createFileLines(root, fs, { maxBytes: MAX_BYTES });
}
