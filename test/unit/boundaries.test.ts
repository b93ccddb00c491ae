/**
 * scripts/check-boundaries.mjs on small trees: hosts reach the engine only through src/core/index.ts, src/protocol
 * takes engine types only. Runs the real script in a scratch directory laid out like the repository.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

const script = resolve('scripts/check-boundaries.mjs');

function check(files: Record<string, string>): { ok: boolean; stderr: string } {
  const root = mkdtempSync(join(tmpdir(), 'co-boundaries-'));
  try {
    const tree: Record<string, string> = {
      'src/core/index.ts': "export { countTokens } from './tokens';\n",
      'src/core/tokens.ts': 'export const countTokens = (s: string) => s.length;\n',
      'webview-ui/main.ts': '', 'test/unit/a.test.ts': '', ...files,
    };
    for (const dir of ['cli', 'mcp', 'server', 'extension', 'node', 'protocol']) mkdirSync(join(root, 'src', dir), { recursive: true });
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8' });
    return { ok: run.status === 0, stderr: run.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a host importing the public module passes; one reaching past it fails, naming the file', () => {
  assert.equal(check({ 'src/cli/a.ts': "import { countTokens } from '../core';\n" }).ok, true);
  assert.equal(check({ 'src/mcp/tools/b.ts': "import { countTokens } from '../../core/index';\n" }).ok, true);
  for (const [path, text] of [
    ['src/cli/a.ts', "import { countTokens } from '../core/tokens';\n"],
    ['src/mcp/tools/b.ts', "import type { X } from '../../core/model';\n"],
    ['src/server/c.ts', "const t = require('../core/tokens');\n"],
    ['src/extension/d.ts', "export { countTokens } from '../core/tokens';\n"],
    ['src/node/e.ts', "import { countTokens } from '../core/tokens';\n"],
  ]) {
    const r = check({ [path!]: text! });
    assert.equal(r.ok, false, path);
    assert.match(r.stderr, new RegExp(`${path}: import the engine through src/core/index.ts`));
  }
});

test('src/protocol may name engine types through the public module, never import its values', () => {
  assert.equal(check({ 'src/protocol/p.ts': "import type { A } from '../core';\nexport type {\n  B,\n} from '../core';\n" }).ok, true);
  const r = check({ 'src/protocol/p.ts': "import { countTokens } from '../core';\n" });
  assert.equal(r.ok, false);
  assert.match(r.stderr, /src\/protocol takes engine types only/);
});
