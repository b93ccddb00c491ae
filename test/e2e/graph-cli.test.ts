/** The built CLI on the graph fixtures: ctx, why, graph, lint (exit codes), sync, query, search --kind node|doc. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ContextBundle } from '../../src/core/bundle/types';
import type { LintReport } from '../../src/core/rules/lint';
import type { QueryEnvelope } from '../../src/core/graph/query';
import { runCli, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';
import { copyFixture } from '../unit/graph-fixture';

let root: string;
let beadloom: string;
before(() => {
  root = copyFixture('graph-project');
  beadloom = copyFixture('beadloom-project');
  assert.equal(runCli(['index', '--root', root]).code, 0);
  assert.equal(runCli(['index', '--root', beadloom]).code, 0);
});
after(() => {
  removeWorkspace(root);
  removeWorkspace(beadloom);
});

describe('graph commands of the CLI', () => {
  it('ctx --json returns an etag; sending it back with --etag gets the short unchanged reply, a stale one the bundle', () => {
    const r = runCliJson<ContextBundle & { etag: string }>(['ctx', 'billing', '--json', '--root', root]);
    assert.match(r.json.etag, /^sha256:[0-9a-f]{16}$/);
    const again = runCliJson<{ unchanged: boolean; etag: string; hint: string }>(['ctx', 'billing', '--json', '--etag', r.json.etag, '--root', root]);
    assert.equal(again.code, 0);
    assert.deepEqual(Object.keys(again.json), ['unchanged', 'etag', 'hint']);
    assert.equal(again.json.etag, r.json.etag);
    const stale = runCliJson<ContextBundle & { etag: string }>(['ctx', 'billing', '--json', '--etag', 'sha256:0000000000000000', '--root', root]);
    assert.equal(stale.json.version, 2);
    assert.equal(stale.json.etag, r.json.etag);
    // A trimmed bundle has its own etag: holding it does not make the whole bundle "unchanged".
    const small = runCliJson<ContextBundle & { etag: string }>(['ctx', 'billing', '--json', '--max-tokens', '500', '--root', root]);
    assert.notEqual(small.json.etag, r.json.etag);
    assert.equal(runCliJson<ContextBundle>(['ctx', 'billing', '--json', '--etag', small.json.etag, '--root', root]).json.version, 2);
  });

  it('ctx --json prints the v2 bundle plus a token count; --markdown renders it', () => {
    const r = runCliJson<ContextBundle & { tokens: number }>(['ctx', 'billing', '--root', root]);
    assert.equal(r.code, 0);
    assert.deepEqual(Object.keys(r.json), ['version', 'focus', 'graph', 'text_chunks', 'code_symbols', 'sync_status', 'constraints', 'routes', 'tests', 'warning', 'tokens', 'etag']);
    assert.equal(r.json.version, 2);
    assert.ok(r.json.tokens > 100);
    const small = runCliJson<ContextBundle & { tokens: number }>(['ctx', 'billing', '--max-tokens', '500', '--root', root]);
    assert.ok(small.json.tokens <= 500);
    const md = runCli(['ctx', 'billing', 'invoices', '--markdown', '--depth', '1', '--root', root]);
    assert.equal(md.code, 0);
    assert.match(md.stdout, /^# billing \(domain\)/);
    assert.match(md.stdout, /## Routes\n\n- POST \/invoices → create_invoice/);
  });

  it('ctx errors: unknown ref_id exits 1 with suggestions; no ref_id and bad flags exit 2', () => {
    const r = runCliJson<{ error: { code: string; detail: { suggestions: string[] } } }>(['ctx', 'biling', '--root', root]);
    assert.equal(r.code, 1);
    assert.equal(r.json.error.code, 'not_found');
    assert.deepEqual(r.json.error.detail.suggestions, ['billing']);
    assert.equal(runCli(['ctx', '--root', root]).code, 2);
    assert.equal(runCli(['ctx', 'billing', '--max-tokens', '0', '--root', root]).code, 2);
    assert.equal(runCli(['ctx', 'billing', '--json', '--markdown', '--root', root]).code, 2);
  });

  it('lint exits 0 with a report, and non-zero with --strict when there are violations', () => {
    const plain = runCli(['lint', '--root', root]);
    assert.equal(plain.code, 0);
    assert.match(plain.stdout, /2 errors, 0 warnings/);
    const strict = runCli(['lint', '--strict', '--root', root]);
    assert.equal(strict.code, 1, 'lint --strict must fail when rules are violated');
    const porcelain = runCli(['lint', '--strict', '--format', 'porcelain', '--root', root]);
    assert.equal(porcelain.code, 1);
    assert.deepEqual(porcelain.stdout.trim().split('\n'), [
      'billing-not-into-auth:deny:error:src/billing/invoices.py:3:billing:auth',
      'feature-needs-domain:require:error:.context-oracle/graph/architecture.yml:53:reports:',
    ]);
    const json = runCliJson<LintReport>(['lint', '--fail-on-warn', '--root', root]);
    assert.equal(json.code, 1);
    assert.equal(json.json.summary.errors, 2);
    assert.equal(runCli(['lint', '--format', 'fancy', '--root', root]).code, 2);
  });

  it('lint on the beadloom project: clean under --strict, its module-coverage warnings fail --fail-on-warn', () => {
    assert.equal(runCli(['lint', '--strict', '--root', beadloom]).code, 0);
    const warn = runCli(['lint', '--fail-on-warn', '--format', 'porcelain', '--root', beadloom]);
    assert.equal(warn.code, 1);
    assert.match(warn.stdout, /^module-coverage:module_coverage:warn:src\/shopapp\/catalog\/prices\.py:::$/m);
  });

  it('ctx on the beadloom project reads its graph, docs and annotations unchanged', () => {
    const r = runCliJson<ContextBundle>(['ctx', 'checkout', '--root', beadloom]);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json.graph.nodes.map((n) => n.ref_id).slice(0, 3), ['checkout', 'orders', 'payments-api']);
    assert.equal(r.json.text_chunks[0]!.section, 'spec');
    assert.equal(r.json.text_chunks[0]!.heading, 'Business rules');
    assert.ok(r.json.code_symbols.some((s) => s.symbol_name === 'checkout' && s.file_path === 'src/shopapp/orders/checkout.py'));
    assert.deepEqual(r.json.tests?.test_files, ['tests/test_checkout.py']);
  });

  it('graph on a YAML file with a syntax error exits 1 with the file, line and error, not an empty diagram', () => {
    const broken = makeWorkspace({ '.context-oracle/graph/g.yml': 'nodes:\n  - ref_id: a\n    kind: [domain\n' });
    try {
      const r = runCli(['graph', '--root', broken]);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /the graph could not be read:\n  \.context-oracle\/graph\/g\.yml:\d+: /);
    } finally {
      removeWorkspace(broken);
    }
  });

  it('status shows the graph: kinds, docs coverage, doc sync, bundle sizes by estimate_tokens; --json under `graph`', () => {
    const text = runCli(['status', '--root', root]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^nodes: {7}9 \(service 4, domain 2, feature 2, entity 1\)$/m);
    assert.match(text.stdout, /^bundles: {5}avg \d+ est\. tokens \(chars\/4, depth 1\); largest \S+ \d+$/m);
    const json = runCliJson<{ files: number; graph: { nodes: number; bundles: { per_node: unknown[] } } }>(['status', '--root', root]);
    assert.ok(json.json.files > 0);
    assert.equal(json.json.graph.nodes, 9);
    assert.equal(json.json.graph.bundles.per_node.length, 9);
  });

  it('why renders box-drawing trees and JSON; graph prints Mermaid or JSON', () => {
    const tree = runCli(['why', 'billing', '--format', 'tree', '--root', root]);
    assert.equal(tree.code, 0);
    assert.match(tree.stdout, /^billing \(domain\): Invoices, payments and money\n\nUpstream/);
    assert.match(tree.stdout, /└── \[depends_on\] payments \(service\)/);
    const json = runCliJson<{ impact: { downstream_direct: number } }>(['why', 'billing', '--reverse', '--root', root]);
    assert.equal(json.json.impact.downstream_direct, 2);
    assert.equal(runCli(['why', 'billing', '--format', 'html', '--root', root]).code, 2);
    const mermaid = runCli(['graph', '--root', root]);
    assert.match(mermaid.stdout, /^graph LR\n/);
    const data = runCliJson<{ nodes: unknown[]; edges: unknown[] }>(['graph', 'notifier', '--depth', '1', '--root', root]);
    assert.equal(data.json.nodes.length, 2);
  });

  it('sync --check exits 1 once code changed after the doc was last brought up to date', () => {
    assert.equal(runCli(['sync', '--root', root]).code, 0);
    assert.equal(runCli(['sync', '--check', '--root', root]).code, 0);
    appendFileSync(join(root, 'src/auth/users.py'), '\n# changed\n');
    const check = runCli(['sync', '--check', '--root', root]);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /stale\s+docs\/auth\/README\.md <-> src\/auth\/users\.py/);
    assert.equal(runCli(['sync', '--mark', 'auth', '--root', root]).code, 0);
    assert.equal(runCli(['sync', '--check', '--root', root]).code, 0);
  });

  it('query prints the seed envelope; an empty term is a required error', () => {
    const ok = runCliJson<QueryEnvelope>(['query', 'invoice', '--limit', '3', '--root', root]);
    assert.equal(ok.code, 0);
    assert.deepEqual(Object.keys(ok.json), ['status', 'result', 'errors', 'meta']);
    assert.equal(ok.json.result!.concepts.length, 3);
    const bad = runCliJson<QueryEnvelope>(['query', '', '--root', root]);
    assert.equal(bad.code, 1);
    assert.equal(bad.json.errors!.query![0]!.code, 'required');
  });

  it('search --kind node and --kind doc search the graph and its docs', () => {
    const nodes = runCliJson<{ results: Array<{ kind: string; ref_id: string }> }>(['search', 'gateway', '--kind', 'node', '--root', root]);
    assert.equal(nodes.json.results[0]!.ref_id, 'api-gateway');
    const docs = runCli(['search', 'credit notes', '--kind', 'doc', '--root', root]);
    assert.match(docs.stdout, /^doc docs\/billing\/README\.md:13  Invariants \[invariants\] → billing/);
  });

  it('search --kind domain|feature|service|… keeps nodes of that kind and their docs (beadloom search --kind)', () => {
    const all = runCliJson<{ results: Array<{ ref_id: string }> }>(['search', 'invoices', '--kind', 'node', '--root', root]);
    const domains = runCliJson<{ results: Array<{ kind: string; ref_id: string; node_kind?: string }> }>(['search', 'invoices', '--kind', 'domain', '--root', root]);
    assert.equal(domains.code, 0);
    assert.ok(all.json.results.some((h) => h.ref_id === 'invoices'), 'the feature matches without a kind filter');
    assert.ok(domains.json.results.length > 0);
    assert.ok(domains.json.results.every((h) => h.ref_id === 'billing' || h.ref_id === 'auth'), JSON.stringify(domains.json.results));
    assert.ok(domains.json.results.every((h) => h.kind === 'doc' || h.node_kind === 'domain'));
    const features = runCliJson<{ results: Array<{ ref_id: string }> }>(['search', 'invoices', '--kind', 'feature', '--root', root]);
    assert.ok(features.json.results.every((h) => h.ref_id === 'invoices' || h.ref_id === 'reports'));
  });
});
