/**
 * The workspace watcher (context-oracle watch, the MCP server): changed, created and deleted source files are
 * reported in batches, files in new folders too; folders the index always skips and files it cannot hold are not.
 * Both modes run here: one watch per folder (Linux default) and Node's native recursive watch.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { watchWorkspace } from '../../src/node/workspace-watcher';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

/** Collects reported paths until `done` holds (or times out, failing with what was seen). */
function collector(): { seen: Set<string>; batches: number; add(paths: string[]): void; until(done: (seen: Set<string>) => boolean): Promise<void> } {
  const seen = new Set<string>();
  let wake: (() => void) | undefined;
  const c = {
    seen,
    batches: 0,
    add(paths: string[]) {
      c.batches++;
      for (const p of paths) seen.add(p);
      wake?.();
    },
    async until(done: (s: Set<string>) => boolean) {
      const deadline = Date.now() + 10_000;
      while (!done(seen)) {
        if (Date.now() > deadline) assert.fail(`timed out; saw ${[...seen].join(', ')}`);
        await new Promise<void>((r) => { wake = r; setTimeout(r, 100); });
      }
    },
  };
  return c;
}

for (const recursive of [false, true]) {
  describe(`workspace watcher (${recursive ? 'native recursive' : 'one watch per folder'})`, () => {
    it('reports changed, new and deleted source files in batches, not skipped folders or other files', async () => {
      const root = makeWorkspace({
        'src/a.ts': 'export const a = 1;\n',
        'src/deep/b.py': 'b = 1\n',
        'node_modules/dep/index.js': 'module.exports = 1;\n',
        'README.md': '# r\n',
      });
      roots.push(root);
      const c = collector();
      const watcher = watchWorkspace(root, { onChanges: (p) => c.add(p), delayMs: 50, recursive });
      try {
        await watcher.ready;
        writeFileSync(join(root, 'src/a.ts'), 'export const a = 2;\n');
        writeFileSync(join(root, 'src/deep/c.go'), 'package deep\n');
        rmSync(join(root, 'src/deep/b.py'));
        writeFileSync(join(root, 'node_modules/dep/index.js'), 'module.exports = 2;\n');
        writeFileSync(join(root, 'README.md'), '# changed\n');
        // A folder that appears with files already in it (a checkout, an unpacked archive).
        mkdirSync(join(root, 'lib/sub'), { recursive: true });
        writeFileSync(join(root, 'lib/sub/d.rs'), 'fn d() {}\n');
        await c.until((s) => ['src/a.ts', 'src/deep/c.go', 'src/deep/b.py', 'lib/sub/d.rs'].every((p) => s.has(p)));
        // Later edits inside the new folder are seen as well.
        writeFileSync(join(root, 'lib/sub/e.ts'), 'export const e = 1;\n');
        await c.until((s) => s.has('lib/sub/e.ts'));
        assert.ok(![...c.seen].some((p) => p.startsWith('node_modules/') || p === 'README.md' || p === 'lib' || p === 'lib/sub'), [...c.seen].join(', '));
        assert.ok(c.batches < c.seen.size + 2, 'events are batched');
      } finally {
        watcher.close();
      }
    });
  });
}

describe('workspace watcher flush', () => {
  it('reports what is pending at once, and nothing after close', async () => {
    const root = makeWorkspace({ 'a.ts': 'export const a = 1;\n' });
    roots.push(root);
    const c = collector();
    const watcher = watchWorkspace(root, { onChanges: (p) => c.add(p), delayMs: 60_000 });
    await watcher.ready;
    writeFileSync(join(root, 'a.ts'), 'export const a = 2;\n');
    // The event arrives asynchronously; flush once it is pending.
    const deadline = Date.now() + 10_000;
    while (!c.seen.size && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      watcher.flush();
    }
    assert.deepEqual([...c.seen], ['a.ts']);
    watcher.close();
    writeFileSync(join(root, 'a.ts'), 'export const a = 3;\n');
    await new Promise((r) => setTimeout(r, 300));
    watcher.flush();
    assert.equal(c.batches, 1);
  });
});
