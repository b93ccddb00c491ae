/**
 * The Node file system reads on the calling thread, so a read must never wait: a FIFO or a device where a file was
 * expected is refused at once, and a repository whose .gitignore is a FIFO still indexes.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/node/file-system';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

describe('node file system', () => {
  const root = makeWorkspace({ 'src/a.ts': 'export function alpha() { return 1; }\n', 'src/b.ts': 'export const beta = 2;\n' });
  after(() => removeWorkspace(root));

  it('reads a regular file whole, through a symlink too', async () => {
    symlinkSync(join(root, 'src/a.ts'), join(root, 'link.ts'));
    assert.equal(Buffer.from(await nodeFileSystem.readFile(join(root, 'src/a.ts'))).toString(), 'export function alpha() { return 1; }\n');
    assert.equal(Buffer.from(await nodeFileSystem.readFile(join(root, 'link.ts'))).toString(), 'export function alpha() { return 1; }\n');
    writeFileSync(join(root, 'empty.ts'), '');
    assert.equal((await nodeFileSystem.readFile(join(root, 'empty.ts'))).length, 0);
  });

  it('refuses a FIFO, a link to one, a device and a folder at once instead of waiting on them', async () => {
    execFileSync('mkfifo', [join(root, 'pipe.ts')]);
    symlinkSync(join(root, 'pipe.ts'), join(root, 'to-pipe.ts'));
    mkdirSync(join(root, 'folder.ts'));
    for (const path of [join(root, 'pipe.ts'), join(root, 'to-pipe.ts'), '/dev/zero', join(root, 'folder.ts')]) {
      const started = Date.now();
      await assert.rejects(nodeFileSystem.readFile(path), (e: NodeJS.ErrnoException) => e.code === 'ENOTREG' || e.code === 'EISDIR', path);
      assert.ok(Date.now() - started < 1000, `${path} refused promptly`);
    }
    await assert.rejects(nodeFileSystem.readFile(join(root, 'missing.ts')), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
  });

  it('indexes a repository whose .gitignore files are FIFOs', async () => {
    execFileSync('mkfifo', [join(root, '.gitignore')]);
    execFileSync('mkfifo', [join(root, 'src/.gitignore')]);
    const engine = testEngine(root);
    try {
      const outcome = await engine.index();
      assert.ok(outcome.parsed >= 2, `parsed ${outcome.parsed}`);
      const hits = await engine.search('alpha');
      assert.ok(hits.some((h) => h.path === 'src/a.ts'), JSON.stringify(hits));
    } finally {
      await engine.dispose();
    }
  });
});
