import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGraph } from '../../src/core/graph/build';
import { proposeStarterGraph, starterGraphYaml, STARTER_GRAPH_PATH } from '../../src/core/graph/starter';
import { parseYamlFile } from '../../src/core/graph/yaml-file';

const files = [
  'README.md', 'package.json',
  'src/core/engine.ts', 'src/core/model.ts', 'src/core/store/db.ts',
  'src/cli/main.ts', 'src/cli/args.ts',
  'src/mcp/server.ts',
  'src/extension/extension.ts', 'src/extension/panel/panel.ts',
  'webview-ui/main.ts',
  'test/unit/a.test.ts', 'test/unit/b.test.ts',
];
const imports = [
  { from: 'src/cli/main.ts', to: 'src/core/engine.ts' },
  { from: 'src/cli/args.ts', to: 'src/core/model.ts' }, // the same folder pair again: one edge
  { from: 'src/mcp/server.ts', to: 'src/core/engine.ts' },
  { from: 'src/extension/panel/panel.ts', to: 'src/extension/extension.ts' }, // inside one node: no edge
  { from: 'test/unit/a.test.ts', to: 'src/core/engine.ts' },
  { from: 'README.md', to: 'src/core/engine.ts' }, // a root-level file belongs to no node
];

test('a starter graph: dominant folders split into their packages, imports between them become uses edges', () => {
  const g = proposeStarterGraph({ files, imports });
  assert.deepEqual(g.nodes.map((n) => [n.ref_id, n.source]), [
    ['cli', 'src/cli/'], ['core', 'src/core/'], ['extension', 'src/extension/'], ['mcp', 'src/mcp/'], ['test', 'test/'], ['webview-ui', 'webview-ui/'],
  ]);
  assert.equal(g.nodes.find((n) => n.ref_id === 'core')!.summary, 'The code in src/core/ (3 files)');
  assert.deepEqual(g.edges.map((e) => `${e.src}->${e.dst}`), ['cli->core', 'mcp->core', 'test->core']);
});

test('the starter YAML loads as a graph without issues, with the same nodes and edges', () => {
  const g = proposeStarterGraph({ files, imports });
  const text = starterGraphYaml(g);
  assert.match(text, /^# A starter graph/);
  const loaded = buildGraph([{ file: STARTER_GRAPH_PATH, parsed: parseYamlFile(STARTER_GRAPH_PATH, text) }]);
  assert.deepEqual(loaded.issues, []);
  assert.deepEqual([...loaded.nodes.keys()], g.nodes.map((n) => n.ref_id));
  assert.equal(loaded.nodes.get('core')!.source, 'src/core/');
  assert.deepEqual(loaded.edges.map((e) => [e.src, e.dst, e.kind]), g.edges.map((e) => [e.src, e.dst, e.kind]));
});

test('clashing folder names get longer ids; an empty index proposes nothing', () => {
  const g = proposeStarterGraph({ files: ['a/util/x.ts', 'b/util/y.ts', 'a/z.ts', 'b/w.ts', 'c/q.ts', 'c/r.ts'], imports: [] });
  assert.deepEqual(g.nodes.map((n) => n.ref_id), ['a', 'b', 'c']);
  const deep = proposeStarterGraph({ files: ['pkg/a/util/x.ts', 'pkg/b/util/y.ts', 'pkg/a/m.ts', 'lib/k.ts'], imports: [] });
  assert.deepEqual(deep.nodes.map((n) => [n.ref_id, n.source]), [['lib', 'lib/'], ['a', 'pkg/a/'], ['b', 'pkg/b/']]);
  assert.deepEqual(proposeStarterGraph({ files: [], imports: [] }), { nodes: [], edges: [] });
  assert.match(starterGraphYaml({ nodes: [], edges: [] }), /edges: \[\]/);
});
