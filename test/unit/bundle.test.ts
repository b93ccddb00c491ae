import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync, appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import { countTokens } from '../../src/core/tokens';
import { SECTION_PRIORITY } from '../../src/core/docs/markdown';
import { isUnchanged, type ContextBundle } from '../../src/core/bundle/types';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';
import { assertGoldenJson } from '../helpers/golden';

const GOLDEN = resolve('test/golden/bundle');
const KEYS = ['version', 'focus', 'graph', 'text_chunks', 'code_symbols', 'sync_status', 'constraints', 'routes', 'tests', 'warning'];

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

/** Time- and machine-dependent fields replaced, so the golden file is stable. */
function normalised(b: ContextBundle): ContextBundle {
  return { ...b, sync_status: { ...b.sync_status, last_reindex: b.sync_status.last_reindex ? '<time>' : null }, warning: b.warning?.replace(/activity unavailable: [^;]*/, 'activity unavailable: <git>') ?? null };
}

function golden(name: string, value: unknown): void {
  assertGoldenJson(join(GOLDEN, `${name}.json`), value);
}

test('billing bundle: seed v2 shape, golden content, exact token count', async () => {
  const r = await engine.contextBundle(['billing']);
  assert.deepEqual(Object.keys(r.bundle), KEYS);
  assert.equal(r.tokens, countTokens(JSON.stringify(r.bundle)));
  assert.match(r.etag, /^sha256:[0-9a-f]{16}$/);
  golden('billing', normalised(r.bundle));
  const b = r.bundle;
  assert.deepEqual(b.focus.links, [{ url: 'https://example.com/billing', label: 'Billing wiki' }]);
  assert.ok(b.graph.nodes.length <= 20);
  assert.equal(b.text_chunks.length, 10, 'max_chunks default');
  for (let i = 1; i < b.text_chunks.length; i++) {
    assert.ok(SECTION_PRIORITY[b.text_chunks[i - 1]!.section as 'spec'] <= SECTION_PRIORITY[b.text_chunks[i]!.section as 'spec'], 'spec > invariants > … > other');
  }
  assert.deepEqual(b.routes.map((x) => `${x.method} ${x.path} ${x.handler}`), ['POST /invoices create_invoice', 'GET /invoices/{invoice_id} read_invoice']);
  assert.deepEqual(b.tests, { framework: 'pytest', frameworks: ['pytest'], test_files: ['tests/test_invoices.py'], test_count: 2, coverage_estimate: 'medium' });
  assert.ok(b.code_symbols.some((s) => s.symbol_name === 'InvoiceService' && s.file_path === 'src/billing/invoices.py'));
  assert.ok(b.constraints.some((c) => c.rule === 'billing-not-into-auth' && c.type === 'deny'));
  assert.equal(b.focus.activity, undefined, 'no git: no activity');
  assert.match(b.warning ?? '', /activity unavailable: /);
});

test('options: depth 0 is the focus alone; max_nodes and max_chunks cap; max_tokens trims to budget', async () => {
  const alone = (await engine.contextBundle(['billing'], { depth: 0 })).bundle;
  assert.deepEqual(alone.graph.nodes.map((n) => n.ref_id), ['billing']);
  const capped = (await engine.contextBundle(['billing'], { maxNodes: 3, maxChunks: 2 })).bundle;
  assert.equal(capped.graph.nodes.length, 3);
  assert.equal(capped.text_chunks.length, 2);
  assert.match(capped.warning ?? '', /max_nodes=3/);
  const full = await engine.contextBundle(['billing']);
  const small = await engine.contextBundle(['billing'], { maxTokens: 600 });
  assert.ok(small.tokens <= 600, `${small.tokens} tokens`);
  assert.equal(small.tokens, countTokens(JSON.stringify(small.bundle)));
  assert.ok(small.bundle.text_chunks.length < full.bundle.text_chunks.length);
  assert.match(small.bundle.warning ?? '', /max_tokens=600: dropped \d+ text_chunks/);
  assert.equal(small.bundle.focus.ref_id, 'billing');
  assert.ok(full.bundle.text_chunks.length === 10, 'trimming a cached bundle never changes the cached copy');
});

test('several focus ids: all are in the graph, focus is the first', async () => {
  const b = (await engine.contextBundle(['notifier', 'payments'], { depth: 0 })).bundle;
  assert.deepEqual(b.graph.nodes.map((n) => n.ref_id), ['notifier', 'payments']);
  assert.equal(b.focus.ref_id, 'notifier');
  assert.deepEqual(b.routes.map((x) => `${x.method} ${x.path}`), ['GET /ping', 'POST /notify', 'RPC Notifier/Send', 'RPC Notifier/Stream']);
});

test('unknown ref_id: not_found with suggestions, prefix first', async () => {
  await assert.rejects(engine.contextBundle(['biling']), (e: unknown) => {
    assert.ok(EngineError.is(e, 'not_found'));
    assert.deepEqual(e.detail?.suggestions, ['billing']);
    return true;
  });
  await assert.rejects(engine.contextBundle(['inv']), (e: unknown) => EngineError.is(e, 'not_found') && (e.detail?.suggestions as string[])[0] === 'invoices');
  await assert.rejects(engine.contextBundle(['  ']), (e: unknown) => EngineError.is(e, 'required'));
});

test('a code symbol as ref_id: its code neighbourhood joined to the declared nodes it belongs to', async () => {
  const b = (await engine.contextBundle(['src/billing/invoices.py::InvoiceService'], { depth: 1 })).bundle;
  assert.equal(b.focus.kind, 'class');
  const ids = b.graph.nodes.map((n) => n.ref_id);
  for (const want of ['invoices', 'billing', 'src/billing/invoices.py', 'src/billing/invoices.py::InvoiceService.issue']) assert.ok(ids.includes(want), `${want} in ${ids.join(', ')}`);
  assert.ok(b.graph.edges.some((e) => e.src === 'invoices' && e.dst === 'src/billing/invoices.py::InvoiceService' && e.kind === 'touches_code'));
  assert.ok(b.code_symbols.some((s) => s.symbol_name === 'InvoiceService'));
  const byName = (await engine.contextBundle(['next_number'], { depth: 1 })).bundle;
  assert.equal(byName.focus.ref_id, 'src/billing/invoices.py::next_number');
});

test('cache: L1 hit, invalidated by a doc edit; L2 found by a new engine after unrelated code changes; full reindex empties it', async () => {
  const ws = copyFixture('graph-project');
  const engines: Engine[] = [];
  const open = () => { const e = testEngine(ws); engines.push(e); return e; };
  try {
    const a = open();
    await a.index();
    const first = await a.contextBundle(['invoices']);
    assert.equal(first.cache, 'miss');
    const again = await a.contextBundle(['invoices']);
    assert.equal(again.cache, 'l1');
    assert.equal(again.etag, first.etag);
    // Conditional call: the etag the caller holds still names the bundle, so only {unchanged, etag} comes back.
    assert.deepEqual(await a.contextBundle(['invoices'], { etag: first.etag }), { unchanged: true, etag: first.etag, hint: 'Context unchanged since the bundle with this etag; use that bundle.' });
    appendFileSync(join(ws, 'docs/billing/invoices.md'), '\n## Specification\n\nInvoices carry a due date.\n');
    const conditional = await a.contextBundle(['invoices'], { etag: first.etag });
    assert.ok(!isUnchanged(conditional) && conditional.cache === 'miss', 'an edited doc changes the bundle: it is sent whole');
    const edited = await a.contextBundle(['invoices']);
    assert.equal(edited.cache, 'l1');
    assert.notEqual(edited.etag, first.etag);
    assert.ok(edited.bundle.text_chunks.some((c) => c.content.includes('due date')));
    // A code change that does not concern the bundle: the index is written (with the bundle_cache rows) and
    // the entry stays valid, in this engine and in the next one.
    writeFileSync(join(ws, 'tools.py'), 'def build():\n    return 1\n');
    await a.index();
    assert.equal((await a.contextBundle(['invoices'])).cache, 'l1');
    const fromDisk = await open().contextBundle(['invoices']);
    assert.equal(fromDisk.cache, 'l2');
    assert.equal(fromDisk.bundle.text_chunks.length, edited.bundle.text_chunks.length);
    // A change to a file the bundle used invalidates it.
    appendFileSync(join(ws, 'src/billing/invoices.py'), '\n\ndef credit_note():\n    return 0\n');
    const b = open();
    await b.index();
    const rebuilt = await b.contextBundle(['invoices']);
    assert.equal(rebuilt.cache, 'miss');
    await b.index({ full: true });
    assert.equal((await open().contextBundle(['invoices'])).cache, 'miss', 'a full reindex starts an empty bundle_cache');
  } finally {
    for (const e of engines) await e.dispose();
    removeWorkspace(ws);
  }
});

test('graph edits are picked up without a reindex', async () => {
  const ws = copyFixture('graph-project');
  const e = testEngine(ws);
  try {
    await e.index();
    assert.equal((await e.contextBundle(['reports'])).bundle.graph.nodes.length, 1);
    appendFileSync(join(ws, '.context-oracle/graph/architecture.yml'), '  - { src: reports, dst: billing, kind: part_of }\n');
    const b = (await e.contextBundle(['reports'], { depth: 1 })).bundle;
    assert.deepEqual(b.graph.nodes.map((n) => n.ref_id), ['reports', 'billing']);
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});

test('without an index the bundle still comes, from graph and docs, saying what is missing', async () => {
  const ws = copyFixture('graph-project');
  const e = testEngine(ws);
  try {
    const b = (await e.contextBundle(['billing'])).bundle;
    assert.ok(b.text_chunks.length > 0);
    assert.deepEqual(b.code_symbols, []);
    assert.match(b.warning ?? '', /no usable index/);
    assert.equal(b.sync_status.last_reindex, null);
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});

test('git activity through the Git port: commits in 30 days give a level', async () => {
  const ws = makeWorkspace({
    '.context-oracle/graph/g.yml': 'nodes:\n  - ref_id: core\n    kind: domain\n    source: core/\n',
    'core/a.py': 'def a():\n    return 1\n',
  });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd: ws, stdio: 'pipe' });
  const e = testEngine(ws);
  try {
    git('init', '-q');
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(ws, 'core/a.py'), `def a():\n    return ${i}\n`);
      git('add', '.');
      git('commit', '-q', '-m', `c${i}`);
    }
    await e.index();
    const b = (await e.contextBundle(['core'])).bundle;
    assert.deepEqual(b.focus.activity, { level: 'warm', commits_30d: 6 });
    assert.equal(b.warning, null);
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});

test('beadloom project bundle (golden): graph, docs and annotations read unchanged', async () => {
  const ws = copyFixture('beadloom-project');
  const e = testEngine(ws);
  try {
    await e.index();
    const r = await e.contextBundle(['orders']);
    golden('beadloom-orders', normalised(r.bundle));
    assert.equal(`${r.bundle.code_symbols[0]!.file_path}:${r.bundle.code_symbols[0]!.symbol_name}`, 'src/shopapp/orders/checkout.py:checkout', 'the focus node\'s code first');
    assert.deepEqual(r.bundle.tests?.test_files, ['tests/test_checkout.py']);
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});

test('a malformed graph file still gives bundles for what loaded, with a warning', async () => {
  const ws = copyFixture('graph-project');
  writeFileSync(join(ws, '.context-oracle/graph/broken.yml'), 'nodes:\n  - ref_id: half\n  - ref_id: [oops\n');
  const e = testEngine(ws);
  try {
    const b = (await e.contextBundle(['billing'], { depth: 0 })).bundle;
    assert.match(b.warning ?? '', /the graph has \d+ load errors? \(see/);
    assert.equal((await e.contextBundle(['half'], { depth: 0 })).bundle.focus.ref_id, 'half');
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});
