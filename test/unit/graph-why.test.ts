import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import { renderWhy } from '../../src/core/graph/why';
import { removeWorkspace, testEngine } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';

let root: string;
let engine: Engine;
before(async () => {
  root = copyFixture('graph-project');
  engine = testEngine(root);
  await engine.index();
});
after(async () => {
  await engine.dispose();
  removeWorkspace(root);
});

test('why: upstream follows outgoing edges, downstream incoming, with an impact summary', async () => {
  const r = await engine.why('shop');
  assert.deepEqual(r.upstream, []);
  const down = r.downstream.map((t) => `${t.edge_kind}:${t.ref_id}[${t.children.map((c) => `${c.edge_kind}:${c.ref_id}`).join(',')}]`);
  assert.deepEqual(down, ['part_of:billing[part_of:invoices,uses:api-gateway]', 'part_of:auth[]']);
  assert.deepEqual({ ...r.impact }, { downstream_direct: 2, downstream_transitive: 2, doc_coverage: 75, stale_count: 0 });
  const tree = renderWhy(r, 'tree');
  assert.match(tree, /├── \[part_of\] billing \(domain\)/);
  assert.match(tree, /│   ├── \[part_of\] invoices/);
  assert.match(tree, /Impact: 2 direct and 2 transitive dependents; doc coverage 75%/);
  assert.match(renderWhy(r, 'panel'), /^┌─+┐\n│ Impact analysis/);
});

test('why --reverse halves downstream depth; max_nodes caps each direction; unknown ids get suggestions', async () => {
  const rev = await engine.why('invoices', { reverse: true, depth: 3 });
  assert.deepEqual(rev.depth, { upstream: 3, downstream: 1 });
  assert.deepEqual(rev.upstream.map((t) => t.ref_id), ['billing']);
  assert.ok(rev.upstream[0]!.children.some((c) => c.ref_id === 'shop'));
  const capped = await engine.why('billing', { maxNodes: 2 });
  const count = (ts: typeof capped.upstream): number => ts.reduce((n, t) => n + 1 + count(t.children), 0);
  assert.equal(count(capped.upstream), 2);
  assert.equal(capped.truncated, true);
  await assert.rejects(engine.why('shp'), (e: unknown) => EngineError.is(e, 'not_found') && (e.detail?.suggestions as string[]).includes('shop'));
});

test('graph view: Mermaid and data, whole or around a node', async () => {
  const whole = await engine.graphView();
  assert.equal(whole.nodes.length, 9);
  assert.equal(whole.edges.length, 9);
  assert.match(whole.mermaid, /^graph LR\n/);
  assert.match(whole.mermaid, /n\d+ -->\|part_of\| n\d+/);
  const around = await engine.graphView(['payments'], { depth: 1 });
  assert.deepEqual(around.nodes.map((n) => n.ref_id), ['payments', 'billing']);
});

test('concept query: direct matches, neighbours, files with previews, adjacency, seed envelope', async () => {
  const env = await engine.conceptQuery('invoice', { limit: 6, depth: 1 });
  assert.equal(env.status, 'success');
  assert.equal(env.errors, null);
  assert.equal(env.meta.path, '/context/query');
  assert.ok(env.meta.duration_ms >= 0 && !Number.isNaN(Date.parse(env.meta.timestamp)));
  const r = env.result!;
  assert.equal(r.concepts.length, 6);
  assert.deepEqual(r.concepts[0], { id: 1, name: 'invoices', type: 'feature', relevance: 'direct' });
  assert.ok(r.concepts.some((c) => c.relevance === 'neighbor'));
  assert.ok(r.files.every((f) => f.url.startsWith('file:///') && f.concepts.length > 0));
  assert.ok(r.files.some((f) => f.preview.includes('Invoices')));
  assert.ok(r.graph.edges.every((e) => r.graph.nodes.includes(e.source) && r.graph.nodes.includes(e.target) && e.relation === e.relation.toUpperCase()));
  const empty = await engine.conceptQuery('zzzz-nothing');
  assert.deepEqual(empty.result, { concepts: [], files: [], graph: { nodes: [], edges: [] } });
  const missing = await engine.conceptQuery('   ');
  assert.deepEqual([missing.status, missing.result, missing.errors], ['error', null, { query: [{ code: 'required', message: 'query is required' }] }]);
});

test('concept query without an index: not_initialized in the envelope', async () => {
  const ws = copyFixture('graph-project');
  const e = testEngine(ws);
  try {
    const env = await e.conceptQuery('billing');
    assert.equal(env.status, 'error');
    assert.equal(env.errors!.index![0]!.code, 'not_initialized');
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});

test('knowledge search: nodes and doc chunks with snippets, filtered by kind', async () => {
  const nodes = await engine.searchKnowledge('payments', { kind: 'node' });
  assert.deepEqual(nodes.map((h) => h.ref_id).slice(0, 2), ['payments', 'billing']);
  const docs = await engine.searchKnowledge('gapless invoice numbers', { kind: 'doc' });
  assert.equal(docs[0]!.kind, 'doc');
  assert.equal(docs[0]!.section, 'invariants');
  assert.match(docs[0]!.snippet, /gapless/);
  assert.ok((await engine.searchKnowledge('sessions')).some((h) => h.kind === 'doc' && h.ref_id === 'auth'));
});
