/**
 * Concept query on a generated 2,000-node graph (the size the seed's 200 ms goal names): structure only. The time is
 * measured by `npm run bench:ctx` (concept query lines), never asserted here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocStore } from '../../src/core/docs/doc-store';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { buildGraph } from '../../src/core/graph/build';
import type { Knowledge } from '../../src/core/graph/knowledge';
import { conceptQuery } from '../../src/core/graph/query';
import { parseYamlFile } from '../../src/core/graph/yaml-file';
import { nodeFileSystem } from '../../src/node/file-system';

const NODES = 2000;

function generated(): Knowledge {
  const lines = ['nodes:'];
  for (let i = 0; i < NODES; i++) lines.push(`  - { ref_id: node-${i}, kind: ${['domain', 'feature', 'service'][i % 3]}, summary: generated }`);
  lines.push('edges:');
  for (let i = 1; i < NODES; i++) lines.push(`  - { src: node-${i}, dst: node-${Math.floor(i / 8)}, kind: part_of }`);
  const parsed = [{ file: 'g.yml', parsed: parseYamlFile('g.yml', `${lines.join('\n')}\n`) }];
  return { graph: buildGraph(parsed), fingerprint: '', docs: new DocStore(nodeFileSystem, '/nonexistent', DEFAULT_CONFIG).session() };
}

test('query on 2,000 nodes: direct hits that fill the limit still leave room for neighbours; ids and edges are consistent', async () => {
  const k = generated();
  assert.equal(k.graph.nodes.size, NODES);
  // "node-1" matches node-1, node-10…node-19, node-100…: far more direct hits than the limit.
  const r = await conceptQuery(k, nodeFileSystem, '/nonexistent', 'node-1', { limit: 9, depth: 1 });
  assert.equal(r.concepts.length, 9);
  const direct = r.concepts.filter((c) => c.relevance === 'direct');
  const neighbours = r.concepts.filter((c) => c.relevance === 'neighbor');
  assert.deepEqual([direct.length, neighbours.length], [6, 3]);
  assert.ok(neighbours.every((c) => !c.name.startsWith('node-1')), 'a neighbour is not itself a direct hit');
  const ids = new Set(r.concepts.map((c) => c.id));
  assert.deepEqual(r.graph.nodes, r.concepts.map((c) => c.id));
  assert.ok(r.graph.edges.length >= neighbours.length && r.graph.edges.every((e) => ids.has(e.source) && ids.has(e.target)));
  // Depth 0: no expansion, so the whole limit goes to direct hits.
  const flat = await conceptQuery(k, nodeFileSystem, '/nonexistent', 'node-1', { limit: 9, depth: 0 });
  assert.deepEqual(flat.concepts.map((c) => c.relevance), Array(9).fill('direct'));
  // Few direct hits: neighbours take every slot left.
  const one = await conceptQuery(k, nodeFileSystem, '/nonexistent', 'node-1999', { limit: 5, depth: 2 });
  assert.deepEqual(one.concepts.map((c) => c.relevance), ['direct', 'neighbor', 'neighbor', 'neighbor', 'neighbor']);
});
