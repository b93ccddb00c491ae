import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { removeWorkspace, testEngine } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';

test('sync: pairs are baselined, code changes make them stale, a doc edit or --mark brings them back', async () => {
  const root = copyFixture('graph-project');
  const engine = testEngine(root);
  try {
    await engine.index();
    const check = await engine.sync({ check: true });
    assert.equal(check.counts.untracked, 4, 'nothing is tracked before the first sync');
    assert.equal(check.baselined, 0);
    // The shop's overview is paired with no file: every file under src/ belongs to a more specific node.
    assert.deepEqual(check.pairs.map((p) => `${p.ref_id} ${p.doc_path} ${p.code_path}`), [
      'billing docs/billing/README.md src/billing/api.py', 'billing docs/billing/README.md src/billing/invoices.py',
      'invoices docs/billing/invoices.md src/billing/invoices.py', 'auth docs/auth/README.md src/auth/users.py',
    ]);
    const first = await engine.sync();
    assert.equal(first.baselined, 4);
    assert.deepEqual(first.counts, { ok: 4, stale: 0, untracked: 0, doc_missing: 0 });
    const state = JSON.parse(readFileSync(join(root, '.context-oracle/sync-state.json'), 'utf8'));
    assert.equal(Object.keys(state.pairs).length, 4);
    assert.ok(first.unpaired.code_without_docs.includes('api-gateway'));
    assert.ok(first.unpaired.docs_without_code.includes('shop'));

    appendFileSync(join(root, 'src/billing/api.py'), '\n# changed\n');
    const stale = await engine.sync();
    const stalePairs = stale.pairs.filter((p) => p.status === 'stale').map((p) => `${p.ref_id} ${p.doc_path}`).sort();
    assert.deepEqual(stalePairs, ['billing docs/billing/README.md']);
    assert.equal(stale.baselined, 0, 'stale pairs keep their old baseline');
    await engine.index();
    const bundle = (await engine.contextBundle(['billing'], { depth: 0 })).bundle;
    assert.deepEqual(bundle.sync_status.stale_docs, [{ doc_path: 'docs/billing/README.md', code_path: 'src/billing/api.py' }]);

    appendFileSync(join(root, 'docs/billing/README.md'), '\nUpdated for the change.\n');
    const docUpdated = await engine.sync();
    assert.equal(docUpdated.pairs.find((p) => p.doc_path === 'docs/billing/README.md' && p.code_path === 'src/billing/api.py')!.status, 'ok');
    assert.equal(docUpdated.counts.stale, 0);
    appendFileSync(join(root, 'src/billing/invoices.py'), '\n# changed too\n');
    assert.equal((await engine.sync({ check: true })).counts.stale, 2, 'both docs of invoices.py');
    const marked = await engine.sync({ mark: ['src/billing/invoices.py'] });
    assert.equal(marked.counts.stale, 0);
    assert.equal(marked.marked, 2, 'every pair of that file');
    await assert.rejects(engine.sync({ mark: ['docs/nope.md'] }), (e: unknown) => EngineError.is(e, 'not_found'));

    await engine.index({ full: true });
    assert.equal((await engine.sync({ check: true })).counts.ok, 4, 'a full reindex forgets no baseline');
  } finally {
    await engine.dispose();
    removeWorkspace(root);
  }
});
