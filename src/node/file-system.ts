import { promises as fsp } from 'node:fs';
import type { DirEntry, FileStat, FileSystem } from '../core';

export const nodeFileSystem: FileSystem = {
  async readDir(absPath) {
    const entries = await fsp.readdir(absPath, { withFileTypes: true });
    return entries.map((e): DirEntry => ({
      name: e.name,
      kind: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other',
    }));
  },
  async stat(absPath): Promise<FileStat> {
    const s = await fsp.stat(absPath);
    return { size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile(), isDirectory: s.isDirectory(), isSymbolicLink: false };
  },
  async readFile(absPath) {
    return fsp.readFile(absPath);
  },
  async realPath(absPath) {
    return fsp.realpath(absPath);
  },
};
