/**
 * Paths from the panel (open) and from the in-editor MCP endpoint (definition_at, references_at) on a real tree with
 * symlinks: a path that reads as inside but whose link points out of the workspace is refused, links inside work.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ToolInputError } from '../../src/extension/http-mcp/mcp-http-server';
import { placeIn } from '../../src/extension/http-mcp/tool-place';
import { workspaceFile } from '../../src/extension/panel/panel-messages';
import { resolveInsideRoot } from '../../src/node/workspace-path';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';

const root = makeWorkspace({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
const outside = mkdtempSync(join(tmpdir(), 'co-ws-out-'));
writeFileSync(join(outside, 'secret.txt'), 'secret\n');
symlinkSync(outside, join(root, 'linkout'));
symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
symlinkSync(join(root, 'src'), join(root, 'src-link'));
symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
// The workspace opened through a symlinked folder: both spellings are the same place.
const aliasParent = mkdtempSync(join(tmpdir(), 'co-ws-alias-'));
const alias = join(aliasParent, 'ws');
symlinkSync(root, alias);
after(() => [root, outside, aliasParent].forEach(removeWorkspace));

const OUT = ['linkout/secret.txt', 'secret-link.txt', 'linkout', 'loop-a/x.ts', '../x', '/etc/passwd', 'src', 'src/missing.ts'];

test('the panel opens files whose real path is inside the workspace, not links out of it', async () => {
  for (const r of [root, alias]) {
    assert.equal(await workspaceFile(r, 'src/a.ts'), 'src/a.ts');
    assert.equal(await workspaceFile(r, 'src-link/a.ts'), 'src-link/a.ts', 'a link that stays inside is fine');
    for (const p of OUT) assert.equal(await workspaceFile(r, p), undefined, `${r}: ${p}`);
  }
});

test('definition_at / references_at refuse a place behind a link out of the workspace', async () => {
  assert.deepEqual(await placeIn(root, { path: 'src/a.ts', line: 1, column: 14 }), { path: 'src/a.ts', line: 1, column: 14 });
  for (const p of OUT) await assert.rejects(placeIn(root, { path: p, line: 1 }), ToolInputError, p);
  await assert.rejects(placeIn(undefined, { path: 'src/a.ts', line: 1 }), ToolInputError, 'no folder open');
});

test('resolveInsideRoot follows links in the target and the root', async () => {
  assert.equal((await resolveInsideRoot(alias, 'src-link/a.ts'))?.rel, 'src/a.ts');
  assert.equal((await resolveInsideRoot(root, 'src/new.ts'))?.exists, false, 'a missing file inside is inside');
  assert.equal(await resolveInsideRoot(root, 'linkout/secret.txt'), undefined);
  assert.equal(await resolveInsideRoot(root, 'linkout/not-there/x'), undefined, 'missing under a link out is still out');
  assert.equal(await resolveInsideRoot(join(root, 'no-such-root'), 'a'), undefined);
});
