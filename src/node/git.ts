/** The Git port over the `git` executable: one child process per call, no shell, output capped. */
import { execFile } from 'node:child_process';
import type { Git } from '../core';

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export function createNodeGit(root: string): Git {
  return {
    run(args, options = {}) {
      return new Promise((resolve, reject) => {
        execFile('git', args, {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: options.maxBytes ?? DEFAULT_MAX_BYTES,
          // Never prompt (credentials, pagers) and never pick up the user's pager or colour settings.
          env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
          ...(options.signal ? { signal: options.signal } : {}),
          windowsHide: true,
        }, (error, stdout, stderr) => {
          if (error) reject(new Error(`git ${args[0] ?? ''}: ${(stderr || error.message).trim().split('\n')[0]}`));
          else resolve(stdout);
        });
      });
    },
  };
}
