import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphView } from '../../src/protocol/webview';
import { CLUSTER_ABOVE, clusterOf, layoutGraph } from '../../webview-ui/graph-layout';
import { remember } from '../../webview-ui/history';
import { syntheticGraph } from '../helpers/synthetic-graph';

type Box = { x: number; y: number; w: number; h: number; what: string };
const overlap = (a: Box, b: Box): boolean => Math.abs(a.x - b.x) * 2 < a.w + b.w && Math.abs(a.y - b.y) * 2 < a.h + b.h;

test('dagre places every node and edge label; no two boxes overlap (labels included)', () => {
  const ids = ['app', 'greeting', 'reporting', 'banners', 'billing', 'auth', 'store'];
  const view: GraphView = {
    nodes: ids.map((ref_id) => ({ ref_id, kind: 'domain', summary: '' })),
    edges: [['greeting', 'app', 'part_of'], ['reporting', 'app', 'part_of'], ['reporting', 'greeting', 'uses'], ['banners', 'greeting', 'uses'],
      ['billing', 'app', 'part_of'], ['billing', 'auth', 'uses'], ['auth', 'store', 'uses'], ['billing', 'store', 'uses'], ['banners', 'app', 'part_of']]
      .map(([src, dst, kind]) => ({ src: src!, dst: dst!, kind: kind! })),
    mermaid: '', unreadable: [],
  };
  const l = layoutGraph(view);
  assert.equal(l.clustered, false);
  assert.equal(l.nodes.length, ids.length);
  assert.equal(l.edges.length, view.edges.length);
  const boxes: Box[] = [...l.nodes.map((n) => ({ x: n.x, y: n.y, w: n.width, h: n.height, what: n.id })),
    ...l.edges.map((e) => ({ x: e.labelAt!.x, y: e.labelAt!.y, w: e.label.length * 6 + 6, h: 14, what: `${e.src}->${e.dst} label` }))];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlap(boxes[i]!, boxes[j]!), `${boxes[i]!.what} overlaps ${boxes[j]!.what}`);
  for (const n of l.nodes) assert.ok(n.x - n.width / 2 >= 0 && n.x + n.width / 2 <= l.width && n.y + n.height / 2 <= l.height, `${n.id} inside the picture`);
});

test('above CLUSTER_ABOVE nodes the graph folds into folder clusters with link counts', () => {
  const view = syntheticGraph(2000);
  const l = layoutGraph(view);
  assert.equal(l.clustered, true);
  assert.equal(l.total, 2000);
  assert.ok(l.nodes.length <= CLUSTER_ABOVE, `${l.nodes.length} clusters`);
  assert.equal(l.nodes.reduce((n, c) => n + c.members!.length, 0), 2000, 'every node is in one cluster');
  assert.ok(l.edges.every((e) => /^\d+ links?$/.test(e.label)));
  assert.equal(clusterOf('src/core/graph/view.ts::graphView', 'function', 2), 'src/core/');
  assert.equal(clusterOf('greeting', 'domain', 2), 'domains');
});

test('saved panel state keeps finished answers and the last cards, not the stream', () => {
  let list = remember([], { type: 'askStarted', id: 'a', question: 'q', explain: false });
  list = remember(list, { type: 'askEvent', id: 'a', event: { type: 'phase', message: 'Searching…' } as never });
  list = remember(list, { type: 'askEvent', id: 'a', event: { type: 'done', result: {} } as never });
  list = remember(list, { type: 'prefill', question: 'x' });
  assert.deepEqual(list.map((m) => m.type), ['askStarted', 'askEvent']);
  for (let i = 0; i < 45; i++) list = remember(list, { type: 'error', title: `e${i}`, message: '' });
  assert.equal(list.length, 40);
  assert.equal(list[0]!.type, 'error', 'the oldest card (the answer and its events) went first');
  assert.deepEqual(remember(list, { type: 'cleared' }), []);
});
