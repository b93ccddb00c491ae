import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMarkdownCache, REWALK_MS } from '../../src/core/oracle/markdown-files';
import { nodeFileSystem } from '../../src/node/file-system';

test('the markdown walk is reused between questions and done again in the background once REWALK_MS old', async () => {
  const root = mkdtempSync(join(tmpdir(), 'co-md-walk-'));
  try {
    writeFileSync(join(root, 'a.md'), '# A\nalpha\n');
    let now = 1_000;
    const cache = createMarkdownCache(() => now);
    const options = { folders: [], exclude: [], respectGitignore: true };
    const names = async (): Promise<string[]> => (await cache.files(root, nodeFileSystem, options)).map((f) => f.path);
    assert.deepEqual(await names(), ['a.md']);
    writeFileSync(join(root, 'b.md'), '# B\nbeta\n');
    writeFileSync(join(root, 'a.md'), '# A\nalpha changed\n');
    now += REWALK_MS - 1;
    const early = await cache.files(root, nodeFileSystem, options);
    // The list is the old walk's, but a listed file is still read again when it changed.
    assert.deepEqual(early.map((f) => f.path), ['a.md']);
    assert.match(early[0]!.lines.join('\n'), /alpha changed/);
    now += 1;
    assert.deepEqual(await names(), ['a.md'], 'the question that finds the list old still uses it');
    // The background walk settles within a few event-loop turns; a loaded machine gets up to two seconds.
    let after = await names();
    for (let i = 0; i < 200 && after.length < 2; i++, after = await names()) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(after, ['a.md', 'b.md'], 'the background walk found the new file');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
