/** The built CLI when the index cannot be written: a typed error naming the path and the cause, never a raw stack. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';

const root = makeWorkspace({ 'src/a.ts': 'export function alpha() { return 1; }\n' });
after(() => removeWorkspace(root));

describe('CLI index write failures', () => {
  it('an index folder that cannot be made (its parent is a file) fails with write_failed naming the folder, and the old index answers', () => {
    assert.equal(runCli(['index', '--root', root]).code, 0);
    // Tests run as root, where a read-only folder still takes writes: a file where the folder should be cannot.
    writeFileSync(join(root, 'blocker'), 'not a folder\n');
    const db = join(root, 'blocker', 'index.db');
    const r = runCli(['index', '--root', root, '--db', db]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error \(write_failed\): cannot write \S*blocker: a file stands where a folder is needed \(EEXIST\)$/m);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, 'no stack trace');
    // Deeper: mkdir under the file fails with ENOTDIR.
    const j = runCliJson<{ error: { code: string; detail: { path: string; cause: string } } }>(['index', '--root', root, '--db', join(root, 'blocker', 'sub', 'index.db')]);
    assert.equal(j.code, 1);
    assert.equal(j.json.error.code, 'write_failed');
    assert.equal(j.json.error.detail.cause, 'ENOTDIR');
    assert.equal(j.json.error.detail.path, join(root, 'blocker', 'sub'));
    // The index that was written before still answers.
    const def = runCli(['def', 'alpha', '--root', root]);
    assert.equal(def.code, 0);
    assert.match(def.stdout, /src\/a\.ts:1/);
  });
});
