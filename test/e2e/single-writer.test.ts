/** One writer at a time across processes: concurrent indexers wait for the lock, none corrupts the index. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { IndexStatus } from '../../src/core/model';
import { CLI, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace, indexPathOf } from '../helpers/workspace';

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += String(d); });
    child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe('single writer', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`pkg/f${i}.py`] = `def function_${i}(x):\n    return x * ${i}\n`.repeat(10);
  const root = makeWorkspace(files);
  after(() => removeWorkspace(root));

  it('four concurrent full indexers all succeed and leave one valid index', async () => {
    const results = await Promise.all([0, 1, 2, 3].map(() => run(['index', '--root', root, '--full'])));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const status = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(status.json.files, 60);
    assert.equal(existsSync(`${indexPathOf(root)}.lock`), false, 'lock released');
  });

  it('readers keep answering while a writer rewrites the index', async () => {
    const writer = run(['index', '--root', root, '--full']);
    const readers = await Promise.all(Array.from({ length: 6 }, () => run(['search', 'function 7', '--root', root])));
    for (const r of readers) assert.equal(r.code, 0, r.stderr);
    assert.equal((await writer).code, 0);
  });
});
