/** The WorkspaceWriter port: appends with the folders created first. */
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import type { WorkspaceWriter } from '../core';

export const nodeWorkspaceWriter: WorkspaceWriter = {
  async append(absPath, text) {
    await fsp.mkdir(dirname(absPath), { recursive: true });
    await fsp.appendFile(absPath, text, 'utf8');
  },
};
