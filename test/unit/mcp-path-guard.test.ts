/** The MCP path guard on a real directory tree with symlinks: inside is resolved, everything outside refused. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ToolError } from '../../src/mcp/errors';
import { createPathGuard } from '../../src/mcp/path-guard';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';

const root = makeWorkspace({ 'src/auth/login.ts': 'export {}\n', 'src/router.ts': 'export {}\n', 'lib/config.py': 'x = 1\n' });
const outside = mkdtempSync(join(tmpdir(), 'co-guard-out-'));
mkdirSync(join(outside, 'inner'));
symlinkSync(outside, join(root, 'out-link'));
symlinkSync(join(root, 'src', 'auth'), join(root, 'auth-link'));
symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
// A workspace reached through a symlink: paths under either spelling are inside.
const aliasParent = mkdtempSync(join(tmpdir(), 'co-guard-alias-'));
const alias = join(aliasParent, 'ws');
symlinkSync(root, alias);
after(() => [root, outside, aliasParent].forEach(removeWorkspace));

async function refused(guard: ReturnType<typeof createPathGuard>, input: string): Promise<ToolError> {
  try {
    await guard.resolve(input, 'path');
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    return e;
  }
  assert.fail(`"${input}" was accepted`);
}

describe('MCP path guard', () => {
  const guard = createPathGuard(root);

  it('resolves relative and absolute paths inside the root to workspace-relative POSIX paths', async () => {
    assert.deepEqual(await guard.resolve('src/auth', 'path'), { rel: 'src/auth', exists: true, isDirectory: true });
    assert.deepEqual(await guard.resolve('./src/router.ts', 'path'), { rel: 'src/router.ts', exists: true, isDirectory: false });
    assert.equal((await guard.resolve(join(root, 'lib'), 'path')).rel, 'lib');
    assert.equal((await guard.resolve('src/../lib', 'path')).rel, 'lib');
    assert.equal((await guard.resolve('', 'path')).rel, '');
    assert.equal((await guard.resolve('.', 'path')).rel, '');
    assert.equal((await guard.resolve(realpathSync(root), 'path')).rel, '');
  });

  it('follows symlinks that stay inside to where they point', async () => {
    assert.deepEqual(await guard.resolve('auth-link', 'path'), { rel: 'src/auth', exists: true, isDirectory: true });
    assert.equal((await guard.resolve('auth-link/login.ts', 'path')).rel, 'src/auth/login.ts');
  });

  it('refuses ../ escapes, absolute paths elsewhere and symlinks pointing out, saying what to pass instead', async () => {
    for (const input of ['..', '../', '../../etc/passwd', 'src/../../x', '/etc', '/', outside, join(outside, 'inner'), 'out-link', 'out-link/inner', 'out-link/missing/deeper']) {
      const e = await refused(guard, input);
      assert.equal(e.code, 'invalid_input', input);
      assert.match(e.message, /`path` must be inside the workspace .*relative to the workspace root/);
    }
    assert.equal((await refused(guard, 'src\0x')).code, 'invalid_input');
  });

  it('a missing path inside is fine for resolve and not_found with close names for resolveExisting', async () => {
    assert.deepEqual(await guard.resolve('src/nothing/here.ts', 'path'), { rel: 'src/nothing/here.ts', exists: false, isDirectory: false });
    await assert.rejects(guard.resolveExisting('src/auht', 'scope'), (e: unknown) => {
      assert.ok(e instanceof ToolError);
      assert.equal(e.code, 'not_found');
      assert.match(e.message, /`scope` "src\/auht" does not exist/);
      assert.equal(e.suggestions?.[0], 'src/auth');
      return true;
    });
    // A symlink loop does not exist either; it must not hang or crash.
    assert.equal((await guard.resolve('loop-a', 'path')).exists, false);
  });

  it('accepts paths under the root when the root itself was given through a symlink', async () => {
    const viaAlias = createPathGuard(alias);
    assert.equal((await viaAlias.resolve(join(alias, 'src'), 'path')).rel, 'src');
    assert.equal((await viaAlias.resolve(join(root, 'src'), 'path')).rel, 'src');
    assert.equal((await refused(viaAlias, join(aliasParent, 'ws', '..'))).code, 'invalid_input');
  });
});
