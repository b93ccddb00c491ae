import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bfsSubgraph, type Neighbour } from '../../src/core/graph/bfs';
import { suggestIds } from '../../src/core/graph/suggest';
import { EDGE_PRIORITY } from '../../src/core/graph/types';

/** Deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS = Object.keys(EDGE_PRIORITY).concat('produces');

function randomGraph(seed: number) {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 40);
  const m = Math.floor(r() * n * 3);
  const edges = Array.from({ length: m }, () => ({ src: `n${Math.floor(r() * n)}`, dst: `n${Math.floor(r() * n)}`, kind: KINDS[Math.floor(r() * KINDS.length)]! }));
  const around = (id: string): Neighbour[] => [
    ...edges.filter((e) => e.src === id).map((e) => ({ id: e.dst, edge: e })),
    ...edges.filter((e) => e.dst === id).map((e) => ({ id: e.src, edge: e })),
  ];
  const focus = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `n${Math.floor(r() * n)}`);
  return { n, edges, around, focus, depth: Math.floor(r() * 4), maxNodes: 1 + Math.floor(r() * 15) };
}

function distances(focus: string[], around: (id: string) => Neighbour[]): Map<string, number> {
  const dist = new Map<string, number>(focus.map((f) => [f, 0]));
  const queue = [...new Set(focus)];
  for (let i = 0; i < queue.length; i++) for (const nb of around(queue[i]!)) if (!dist.has(nb.id)) { dist.set(nb.id, dist.get(queue[i]!)! + 1); queue.push(nb.id); }
  return dist;
}

test('BFS invariants hold on 500 random graphs (cycles, self-loops, parallel edges included)', () => {
  for (let seed = 1; seed <= 500; seed++) {
    const g = randomGraph(seed);
    const sub = bfsSubgraph(g.focus, g.around, { depth: g.depth, maxNodes: g.maxNodes });
    const nodes = new Set(sub.nodes);
    const ctx = `seed ${seed}`;
    assert.equal(nodes.size, sub.nodes.length, `${ctx}: every node once`);
    for (const f of g.focus) assert.ok(nodes.has(f), `${ctx}: focus ${f} included`);
    assert.ok(sub.nodes.length <= Math.max(g.maxNodes, new Set(g.focus).size), `${ctx}: max_nodes is a hard limit`);
    const dist = distances(g.focus, g.around);
    for (const id of sub.nodes) assert.ok(dist.get(id)! <= g.depth, `${ctx}: ${id} within depth`);
    for (const e of sub.edges) assert.ok(nodes.has(e.src) && nodes.has(e.dst), `${ctx}: edge ends are in the subgraph`);
    const induced = new Set(g.edges.filter((e) => nodes.has(e.src) && nodes.has(e.dst)).map((e) => `${e.src}>${e.dst}>${e.kind}`));
    assert.deepEqual(new Set(sub.edges.map((e) => `${e.src}>${e.dst}>${e.kind}`)), induced, `${ctx}: every edge between subgraph nodes, including to visited nodes`);
    if (!sub.truncated) {
      const reachable = [...dist].filter(([, d]) => d <= g.depth).map(([id]) => id);
      assert.deepEqual(new Set(reachable), nodes, `${ctx}: without truncation, everything within depth`);
    }
  }
});

test('a cycle does not make the walk loop; nodes come once', () => {
  const edges = [{ src: 'a', dst: 'b', kind: 'uses' }, { src: 'b', dst: 'c', kind: 'uses' }, { src: 'c', dst: 'a', kind: 'uses' }];
  const around = (id: string) => [...edges.filter((e) => e.src === id).map((e) => ({ id: e.dst, edge: e })), ...edges.filter((e) => e.dst === id).map((e) => ({ id: e.src, edge: e }))];
  const sub = bfsSubgraph(['a'], around, { depth: 50, maxNodes: 50 });
  assert.deepEqual(sub.nodes, ['a', 'b', 'c']);
  assert.equal(sub.edges.length, 3);
});

test('neighbours are taken in edge-priority order, so max_nodes keeps part_of over touches_code', () => {
  const edges = [
    { src: 'f', dst: 'code', kind: 'touches_code' }, { src: 'f', dst: 'dep', kind: 'depends_on' },
    { src: 'f', dst: 'user', kind: 'uses' }, { src: 'f', dst: 'entity', kind: 'touches_entity' }, { src: 'child', dst: 'f', kind: 'part_of' },
  ];
  const around = (id: string) => [...edges.filter((e) => e.src === id).map((e) => ({ id: e.dst, edge: e })), ...edges.filter((e) => e.dst === id).map((e) => ({ id: e.src, edge: e }))];
  assert.deepEqual(bfsSubgraph(['f'], around, { depth: 1, maxNodes: 10 }).nodes, ['f', 'child', 'entity', 'user', 'dep', 'code']);
  const cut = bfsSubgraph(['f'], around, { depth: 1, maxNodes: 3 });
  assert.deepEqual(cut.nodes, ['f', 'child', 'entity']);
  assert.equal(cut.truncated, true);
});

test('more focus nodes than max_nodes: all focus nodes, nothing else', () => {
  const sub = bfsSubgraph(['a', 'b', 'c'], () => [{ id: 'x', edge: { src: 'a', dst: 'x', kind: 'uses' } }], { depth: 2, maxNodes: 1 });
  assert.deepEqual(sub.nodes, ['a', 'b', 'c']);
});

test('suggestions: prefix matches first (case-insensitive), then Levenshtein, at most five', () => {
  const ids = ['mcp-server', 'MCP-client', 'PROJ-123', 'PROJ-124', 'PROJ-999', 'auth', 'billing', 'mcp', 'mcpx', 'mcp-tools', 'mcp-a'];
  assert.deepEqual(suggestIds('PROJ-125', ids).slice(0, 2), ['PROJ-123', 'PROJ-124']);
  const mcp = suggestIds('Mcp', ids);
  assert.equal(mcp.length, 5);
  assert.ok(mcp.every((s) => s.toLowerCase().startsWith('mcp')), mcp.join());
  assert.deepEqual(suggestIds('biling', ids), ['billing']);
  assert.deepEqual(suggestIds('zzzzzzzzzzzz', ids), []);
});
