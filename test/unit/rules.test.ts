import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGraph } from '../../src/core/graph/build';
import { DocStore } from '../../src/core/docs/doc-store';
import { DEFAULT_CONFIG } from '../../src/core/config';
import type { Knowledge } from '../../src/core/graph/knowledge';
import { parseYamlFile } from '../../src/core/graph/yaml-file';
import { loadRules } from '../../src/core/rules/load';
import { formatPorcelain, lintExitCode, lintGraph } from '../../src/core/rules/lint';
import { nodeFileSystem } from '../../src/node/file-system';
import { removeWorkspace, testEngine } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';

function knowledgeOf(files: Record<string, string>): { k: Knowledge; rules: ReturnType<typeof loadRules> } {
  const parsed = Object.entries(files).map(([file, text]) => ({ file, parsed: parseYamlFile(file, text) }));
  return { k: { graph: buildGraph(parsed), fingerprint: '', docs: new DocStore(nodeFileSystem, '/nonexistent', DEFAULT_CONFIG).session() }, rules: loadRules(parsed) };
}

const GRAPH = `nodes:
  - { ref_id: app, kind: service, tags: [top] }
  - { ref_id: core, kind: domain, tags: [mid] }
  - { ref_id: db, kind: domain, tags: [low] }
  - { ref_id: lonely, kind: feature }
  - { ref_id: ok-feature, kind: feature }
edges:
  - { src: app, dst: core, kind: depends_on }
  - { src: core, dst: db, kind: depends_on }
  - { src: db, dst: core, kind: depends_on }
  - { src: db, dst: app, kind: uses }
  - { src: app, dst: db, kind: uses }
  - { src: ok-feature, dst: core, kind: part_of }
`;

test('require, forbid_cycles, forbid and layers find exactly the violations there are', () => {
  const { k, rules } = knowledgeOf({ 'g.yml': GRAPH, 'rules.yml': `rules:
  - name: feature-needs-domain
    require: { for: { kind: feature }, has_edge_to: { kind: domain }, edge_kind: part_of }
  - name: no-cycles
    forbid_cycles: { edge_kind: depends_on }
  - name: no-domain-to-service
    severity: warn
    forbid: { from: { kind: domain }, to: { kind: service } }
  - name: layers
    layers: [{ name: top, tag: top }, { name: mid, tag: mid }, { name: low, tag: low }]
    enforce: top-down
    allow_skip: false
    edge_kind: uses
` });
  assert.deepEqual(rules.issues, []);
  const report = lintGraph(k, rules);
  const got = report.violations.map((v) => `${v.rule}|${v.severity}|${v.from ?? ''}|${v.to ?? ''}`).sort();
  assert.deepEqual(got, [
    'feature-needs-domain|error|lonely|',
    'graph:cycle|warn||', // the loader's own warning, whatever the rules say
    'layers|error|app|db', // app (top) -uses-> db (low) skips mid
    'layers|error|db|app', // db (low) -uses-> app (top) goes up
    'no-cycles|error|core|',
    'no-domain-to-service|warn|db|app',
  ].sort());
  assert.equal(report.summary.errors, 4);
  assert.equal(report.summary.warnings, 2);
  const cycle = report.violations.find((v) => v.rule === 'no-cycles')!;
  assert.match(cycle.message, /core -> db -> core/);
  assert.equal(cycle.file, 'g.yml');
  // Porcelain names the types as beadloom's violations do: cycle, layer (cardinality for check).
  assert.match(formatPorcelain(report), /^no-cycles:cycle:error:g\.yml:/m);
  assert.match(formatPorcelain(report), /^layers:layer:error:g\.yml:12:app:db$/m);
});

test('lint exit codes: 0 by default, 1 with --strict on errors, 1 with --fail-on-warn on warnings only', () => {
  const { k, rules } = knowledgeOf({ 'g.yml': GRAPH.replace('  - { src: db, dst: core, kind: depends_on }\n', ''), 'r.yml': 'rules:\n  - name: w\n    severity: warn\n    forbid: { from: { kind: domain }, to: { kind: service } }\n' });
  const report = lintGraph(k, rules);
  assert.equal(report.summary.errors, 0);
  assert.equal(report.summary.warnings, 1);
  assert.equal(lintExitCode(report, {}), 0);
  assert.equal(lintExitCode(report, { strict: true }), 0);
  assert.equal(lintExitCode(report, { failOnWarn: true }), 1);
  const clean = lintGraph(knowledgeOf({ 'g.yml': 'nodes:\n  - ref_id: a\n' }).k, loadRules([]));
  assert.equal(lintExitCode(clean, { strict: true, failOnWarn: true }), 0);
  assert.equal(formatPorcelain(report), 'w:forbid:warn:g.yml:10:db:app');
});

test('malformed rules, unknown rule types and unknown edge kinds are errors with file and line; the rest load', () => {
  const { rules } = knowledgeOf({ 'rules.yml': `version: 3
rules:
  - name: no-from
    deny: { to: { kind: x } }
  - name: bad-severity
    severity: fatal
    require: { for: { kind: feature }, has_edge_to: {} }
  - name: coverage
    module_coverage: { source_root: src/ }
  - name: mystery
    frobnicate: true
  - name: good
    require: { for: { kind: feature }, has_edge_to: {} }
  - name: off
    enabled: false
    require: { for: { kind: feature }, has_edge_to: {} }
  - name: odd-edge
    deny: { from: { kind: domain }, to: { kind: service }, unless_edge: [part_off] }
  - name: two-types
    forbid_cycles: { edge_kind: depends_on }
    require: { for: { kind: feature }, has_edge_to: {} }
  - name: odd-cycle-edge
    forbid_cycles: { edge_kind: [depends_on, calls] }
  - name: odd-node-kind
    require: { for: { kind: module }, has_edge_to: {} }
` });
  assert.deepEqual(rules.rules.map((r) => r.name), ['coverage', 'good']);
  assert.deepEqual(rules.issues.map((i) => [i.severity, i.line, i.code]), [
    ['error', 3, 'invalid_rule'], ['error', 5, 'invalid_rule'], ['error', 10, 'unsupported_rule'], ['error', 17, 'invalid_rule'],
    ['error', 19, 'unsupported_rule'], ['error', 22, 'invalid_rule'], ['error', 24, 'invalid_rule'],
  ]);
  assert.match(rules.issues[6]!.message, /unknown node kind `module`/);
  assert.match(rules.issues[0]!.message, /deny\.from/);
  assert.match(rules.issues[2]!.message, /unknown rule type `frobnicate`/);
  assert.match(rules.issues[3]!.message, /unknown edge kind `part_off`/);
  assert.match(rules.issues[5]!.message, /unknown edge kind `calls`/);
});

test('graph edges of a kind nobody knows load with a warning at their file and line', () => {
  const { k } = knowledgeOf({ 'g.yml': 'nodes:\n  - ref_id: a\n  - ref_id: b\nedges:\n  - { src: a, dst: b, kind: calls }\n  - { src: a, dst: b, kind: consumes }\n' });
  assert.deepEqual(k.graph.issues.map((i) => [i.code, i.file, i.line]), [['unknown_edge_kind', 'g.yml', 5]]);
  assert.equal(k.graph.edges.length, 2);
});

test('fixture lint: deny catches the billing→auth import, require catches the orphan feature; beadloom project is clean', async () => {
  const root = copyFixture('graph-project');
  const e = testEngine(root);
  const broot = copyFixture('beadloom-project');
  const be = testEngine(broot);
  try {
    await e.index();
    const report = await e.lint();
    assert.deepEqual(report.violations.map((v) => `${v.rule} ${v.file}:${v.line} ${v.from}->${v.to ?? ''}`), [
      'billing-not-into-auth src/billing/invoices.py:3 billing->auth',
      'feature-needs-domain .context-oracle/graph/architecture.yml:53 reports->',
    ]);
    assert.equal(lintExitCode(report, { strict: true }), 1);
    await be.index();
    const clean = await be.lint();
    assert.equal(clean.summary.errors, 0, JSON.stringify(clean.violations));
    // module_coverage is evaluated (severity warn in this fixture): the empty packages and the domain-only module.
    assert.deepEqual(clean.violations.map((v) => `${v.rule} ${v.file}`), [
      'module-coverage src/shopapp/__init__.py', 'module-coverage src/shopapp/catalog/__init__.py',
      'module-coverage src/shopapp/catalog/prices.py', 'module-coverage src/shopapp/orders/__init__.py',
    ]);
    assert.equal(clean.summary.rules_evaluated, 6);
  } finally {
    await e.dispose();
    await be.dispose();
    removeWorkspace(root);
    removeWorkspace(broot);
  }
});

test('forbid_cycles and layers count live edges only: planned, deprecated and dead edges are not violations (beadloom)', () => {
  const { k, rules } = knowledgeOf({ 'g.yml': `nodes:
  - { ref_id: a, kind: domain, tags: [top] }
  - { ref_id: b, kind: domain, tags: [low] }
edges:
  - { src: a, dst: b, kind: depends_on }
  - { src: b, dst: a, kind: depends_on, lifecycle: planned }
  - { src: b, dst: a, kind: uses, lifecycle: deprecated }
`, 'rules.yml': `rules:
  - name: no-cycles
    forbid_cycles: { edge_kind: depends_on }
  - name: layers
    layers: [{ name: top, tag: top }, { name: low, tag: low }]
    enforce: top-down
    edge_kind: uses
` });
  assert.deepEqual(lintGraph(k, rules).violations.filter((v) => v.type !== 'graph').map((v) => v.rule), []);
  const active = knowledgeOf({ 'g.yml': 'nodes:\n  - { ref_id: a, kind: domain, tags: [top] }\n  - { ref_id: b, kind: domain, tags: [low] }\nedges:\n  - { src: a, dst: b, kind: depends_on }\n  - { src: b, dst: a, kind: depends_on, lifecycle: active }\n  - { src: b, dst: a, kind: uses }\n', 'rules.yml': 'rules:\n  - name: no-cycles\n    forbid_cycles: { edge_kind: depends_on }\n  - name: layers\n    layers: [{ name: top, tag: top }, { name: low, tag: low }]\n    enforce: top-down\n    edge_kind: uses\n' });
  assert.deepEqual(lintGraph(active.k, active.rules).violations.filter((v) => v.type !== 'graph').map((v) => v.rule).sort(), ['layers', 'no-cycles']);
});
