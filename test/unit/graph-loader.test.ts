import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGraph } from '../../src/core/graph/build';
import { parseYamlFile } from '../../src/core/graph/yaml-file';
import { nodeFileSystem } from '../../src/node/file-system';
import { loadGraph, locateGraphFiles } from '../../src/core/graph/loader';
import { loadRules } from '../../src/core/rules/load';
import { copyFixture } from './graph-fixture';
import { removeWorkspace } from '../helpers/workspace';

const graphOf = (files: Record<string, string>) => buildGraph(Object.entries(files).map(([file, text]) => ({ file, parsed: parseYamlFile(file, text) })));

test('nodes and edges load with the line they were declared on', () => {
  const g = graphOf({ 'g.yml': 'nodes:\n  - ref_id: a\n    kind: domain\n    summary: A\n    owner: team-x\n  - ref_id: b\n    kind: feature\nedges:\n  - { src: b, dst: a, kind: part_of }\n' });
  assert.deepEqual([...g.nodes.keys()], ['a', 'b']);
  assert.equal(g.nodes.get('b')!.at.line, 6);
  assert.deepEqual(g.nodes.get('a')!.extra, { owner: 'team-x' });
  assert.deepEqual(g.edges.map((e) => [e.src, e.dst, e.kind, e.at?.line]), [['b', 'a', 'part_of', 9]]);
  assert.deepEqual(g.issues, []);
});

test('malformed YAML: an error names file and line, what came before it and the other files still load', () => {
  const g = graphOf({
    'bad.yml': 'nodes:\n  - ref_id: early\n    kind: domain\n  - ref_id: [broken\n    kind: x\n',
    'good.yml': 'nodes:\n  - ref_id: other\n',
  });
  const err = g.issues.find((i) => i.code === 'yaml_syntax');
  assert.ok(err, JSON.stringify(g.issues));
  assert.equal(err.file, 'bad.yml');
  assert.equal(err.severity, 'error');
  assert.ok(err.line >= 4, `line ${err.line}`);
  assert.ok(g.nodes.has('early'), 'items before the error load');
  assert.ok(g.nodes.has('other'), 'other files load');
  assert.ok(!g.nodes.has('[broken'));
});

test('duplicate and empty ids are errors naming both places; the first declaration wins', () => {
  const g = graphOf({ 'a.yml': 'nodes:\n  - ref_id: x\n    summary: first\n  - ref_id: ""\n  - kind: domain\n', 'b.yml': 'nodes:\n  - ref_id: x\n    summary: second\n  - ref_id: 42\n' });
  assert.equal(g.nodes.get('x')!.summary, 'first');
  assert.ok(g.nodes.has('42'), 'a numeric ref_id is read as text');
  const dup = g.issues.filter((i) => i.code === 'duplicate_id');
  assert.equal(dup.length, 1);
  assert.equal(dup[0]!.file, 'b.yml');
  assert.equal(dup[0]!.line, 2);
  assert.match(dup[0]!.message, /a\.yml:2/);
  assert.equal(g.issues.filter((i) => i.code === 'missing_id').length, 2);
});

test('dangling edges are warnings and are dropped; federated @repo edges are skipped quietly', () => {
  const g = graphOf({ 'g.yml': 'nodes:\n  - ref_id: a\nedges:\n  - { src: a, dst: ghost, kind: uses }\n  - { src: a, dst: "@other:x", kind: uses }\n  - { src: a, kind: uses }\n' });
  assert.equal(g.edges.length, 0);
  const dangling = g.issues.filter((i) => i.code === 'dangling_edge');
  assert.equal(dangling.length, 1);
  assert.equal(dangling[0]!.severity, 'warning');
  assert.match(dangling[0]!.message, /"ghost"/);
  assert.equal(g.issues.filter((i) => i.code === 'invalid_edge').length, 1);
});

test('part_of and depends_on cycles are warned once each; uses loops and a root self-loop are not', () => {
  const g = graphOf({ 'g.yml': `nodes:\n${['a', 'b', 'c', 'root'].map((x) => `  - ref_id: ${x}\n`).join('')}edges:
  - { src: a, dst: b, kind: depends_on }
  - { src: b, dst: c, kind: depends_on }
  - { src: c, dst: a, kind: depends_on }
  - { src: a, dst: b, kind: uses }
  - { src: b, dst: a, kind: uses }
  - { src: root, dst: root, kind: part_of }
` });
  const cycles = g.issues.filter((i) => i.code === 'cycle');
  assert.equal(cycles.length, 1);
  assert.equal(cycles[0]!.severity, 'warning');
  assert.match(cycles[0]!.message, /depends_on cycle: a -> b -> c -> a/);
  assert.equal(g.edges.length, 6, 'cycles are reported, not removed');
});

test('wrong shapes are errors, never crashes', () => {
  const shapes = ['- just\n- a list\n', 'nodes: 3\n', 'nodes:\n  - plain string\n', 'edges: {a: 1}\n', '', '~\n', 'nodes:\n  - ref_id: {nested: map}\n'];
  for (const text of shapes) {
    const g = graphOf({ 'x.yml': text });
    assert.equal(g.nodes.size, 0, text);
    if (text.trim() && text.trim() !== '~') assert.ok(g.issues.some((i) => i.severity === 'error' && i.file === 'x.yml'), `no error for ${JSON.stringify(text)}`);
  }
});

test('a huge graph (20,000 nodes, 40,000 edges) loads', () => {
  const nodes = Array.from({ length: 20_000 }, (_, i) => `  - ref_id: n${i}\n    kind: component\n`).join('');
  const edges = Array.from({ length: 40_000 }, (_, i) => `  - { src: n${i % 20_000}, dst: n${(i * 7 + 1 + Math.floor(i / 20_000)) % 20_000}, kind: uses }\n`).join('');
  const g = graphOf({ 'big.yml': `nodes:\n${nodes}edges:\n${edges}` });
  assert.equal(g.nodes.size, 20_000);
  assert.ok(g.edges.length > 39_000);
});

test('a beadloom project loads unchanged: graph, tags from rules.yml, unknown edge kinds, rules', async () => {
  const root = copyFixture('beadloom-project');
  try {
    const located = await locateGraphFiles(nodeFileSystem, root);
    assert.deepEqual(located.files, ['.beadloom/_graph/rules.yml', '.beadloom/_graph/services.yml']);
    const { graph, parsed } = await loadGraph(nodeFileSystem, root, located);
    assert.deepEqual(graph.issues, []);
    assert.equal(graph.nodes.size, 6);
    assert.deepEqual(graph.nodes.get('cli')!.tags, ['layer-service']);
    assert.deepEqual(graph.nodes.get('payments-api')!.extra, { lifecycle: 'external' });
    assert.ok(graph.edges.some((e) => e.kind === 'consumes'), 'unknown edge kinds are kept');
    const rules = loadRules(parsed);
    assert.deepEqual(rules.rules.map((r) => r.type), ['require', 'require', 'deny', 'forbid_cycles', 'layers', 'module_coverage']);
    assert.deepEqual(rules.issues, []);
  } finally {
    removeWorkspace(root);
  }
});
