import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { estimateTokens } from '../../src/core/graph/status';
import { removeWorkspace, testEngine } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';

test("status's graph part: nodes and edges by kind, docs coverage, stale pairs, a bundle size per node by estimate_tokens", async () => {
  const root = copyFixture('graph-project');
  const engine = testEngine(root);
  try {
    await engine.index();
    await engine.sync();
    appendFileSync(join(root, 'src/billing/invoices.py'), '\n\ndef void_invoice():\n    pass\n');
    await engine.index();
    const g = (await engine.graphStatus())!;
    assert.deepEqual(g.nodes_by_kind, { service: 4, domain: 2, feature: 2, entity: 1 });
    assert.deepEqual(g.edges_by_kind, { part_of: 3, depends_on: 2, touches_entity: 2, uses: 2 });
    assert.deepEqual([g.docs.covered, g.docs.coverage_pct, g.docs.by_kind.domain], [4, 44.4, { covered: 2, total: 2 }]);
    assert.equal(g.isolated, 1);
    assert.ok(g.stale_pairs.some((p) => p.code_path === 'src/billing/invoices.py' && p.reason === 'code_changed'), JSON.stringify(g.stale_pairs));
    assert.equal(g.sync.stale, g.stale_pairs.length);
    assert.equal(g.nodes, Object.values(g.nodes_by_kind).reduce((a, b) => a + b, 0));
    assert.equal(g.edges, Object.values(g.edges_by_kind).reduce((a, b) => a + b, 0));
    assert.equal(g.bundles.per_node.length + g.bundles.failed.length, g.nodes);
    assert.ok(g.bundles.per_node.every((b, i, all) => i === 0 || all[i - 1]!.estimate_tokens >= b.estimate_tokens), 'largest first');
    assert.deepEqual(g.bundles.largest, g.bundles.per_node[0]);
    assert.equal(estimateTokens('x'.repeat(4003)), 1000);
  } finally {
    await engine.dispose();
    removeWorkspace(root);
  }
});
