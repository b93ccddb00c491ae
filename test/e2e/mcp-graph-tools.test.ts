/**
 * The architecture-graph tools through the SDK's own client over stdio, on the beadloom fixture (six nodes, rules,
 * doc↔code pairs): list_nodes, get_node, get_graph, query, lint, sync_check, mark_synced, and get_context's etag
 * round trip. Each: paging where it lists, a typed error for an unknown ref id, and max_tokens=200 honoured.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { countTokens } from '../../src/core/tokens';
import { removeWorkspace } from '../helpers/workspace';
import { copyFixture } from '../unit/graph-fixture';
import { call, serve, type ErrorBody, type Served } from './mcp-harness';

interface Page { offset: number; returned: number; total?: number; next_cursor?: string }
interface NodeItem { ref_id: string; kind: string; summary: string; out?: Array<{ dst: string; kind: string }> }
interface Pair { ref_id: string; doc_path: string; code_path: string; status: string; reason: string }
interface Counts { ok: number; stale: number; untracked: number; doc_missing: number }

const NODES = ['shopapp', 'orders', 'catalog', 'checkout', 'cli', 'payments-api'];

let root: string;
let served: Served;

before(async () => {
  root = copyFixture('beadloom-project');
  served = await serve(root);
});
after(async () => {
  await served?.close();
  removeWorkspace(root);
});

const tool = <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) => call<T>(served.client, name, args);

async function toolError(name: string, args: Record<string, unknown>): Promise<ErrorBody> {
  const r = await tool<ErrorBody>(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got ${r.texts[0]}`);
  return r.json;
}

/** Every block of the answer counted, as the budget counts it. */
async function withinBudget(name: string, args: Record<string, unknown>, maxTokens = 200): Promise<void> {
  const r = await tool(name, { ...args, max_tokens: maxTokens });
  assert.equal(r.isError, false, `${name}: ${r.texts[0]}`);
  const tokens = r.texts.reduce((n, t) => n + countTokens(t), 0);
  assert.ok(tokens <= maxTokens, `${name} ${JSON.stringify(args)}: ${tokens} tokens for max_tokens=${maxTokens}`);
}

/** Every item of a paged list, following next_cursor with `limit` per page. */
async function allPages<T>(name: string, key: string, args: Record<string, unknown>, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await tool<Record<string, unknown> & { page?: Page }>(name, { ...args, limit, ...(cursor ? { cursor } : {}) });
    assert.equal(r.isError, false, r.texts[0]);
    const page = r.json[key] as T[];
    assert.ok(page.length <= limit);
    items.push(...page);
    cursor = r.json.page?.next_cursor;
    pages++;
  } while (cursor && pages < 50);
  return { items, pages };
}

describe('MCP graph tools', () => {
  it('tools/list holds the graph tools and stays under 12,000 characters of JSON', async () => {
    const listed = await served.client.listTools();
    const names = listed.tools.map((t) => t.name);
    for (const name of ['list_nodes', 'get_node', 'get_graph', 'query', 'lint', 'sync_check', 'mark_synced']) assert.ok(names.includes(name), name);
    assert.ok(JSON.stringify(listed).length < 12_000, `tools/list is ${JSON.stringify(listed).length} characters`);
  });

  it('list_nodes: every node, a kind filter, pages that add up, a cursor bound to its kind', async () => {
    const all = await tool<{ total: number; nodes: NodeItem[] }>('list_nodes', {});
    assert.deepEqual(all.json.nodes.map((n) => n.ref_id), NODES);
    assert.equal(all.json.total, 6);
    const domains = await tool<{ nodes: NodeItem[] }>('list_nodes', { kind: 'domain' });
    assert.deepEqual(domains.json.nodes.map((n) => n.ref_id), ['orders', 'catalog']);
    const paged = await allPages<NodeItem>('list_nodes', 'nodes', {}, 2);
    assert.equal(paged.pages, 3);
    assert.deepEqual(paged.items.map((n) => n.ref_id), NODES);
    const none = await tool<{ nodes: NodeItem[]; hint?: string }>('list_nodes', { kind: 'widget' });
    assert.deepEqual(none.json.nodes, []);
    assert.match(none.json.hint ?? '', /kinds here: component, domain, feature, service/);
    const first = await tool<{ page: Page }>('list_nodes', { limit: 2 });
    assert.equal((await toolError('list_nodes', { kind: 'domain', cursor: first.json.page.next_cursor })).code, 'invalid_input');
    await withinBudget('list_nodes', {});
  });

  it('get_node: the node as declared with its edges; an unknown id is not_found with the closest ids', async () => {
    const r = await tool<NodeItem & { source: string; docs: string[]; at: { file: string }; in: unknown[] }>('get_node', { ref_id: 'checkout' });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.source, 'src/shopapp/orders/checkout.py');
    assert.deepEqual(r.json.docs, ['docs/domains/orders/checkout.md']);
    assert.equal(r.json.at.file, '.beadloom/_graph/services.yml');
    assert.deepEqual(r.json.out, [{ dst: 'orders', kind: 'part_of' }, { dst: 'payments-api', kind: 'consumes' }]);
    const missing = await toolError('get_node', { ref_id: 'chekout' });
    assert.equal(missing.code, 'not_found');
    assert.deepEqual(missing.suggestions, ['checkout']);
    await withinBudget('get_node', { ref_id: 'orders' });
  });

  it('get_graph: JSON paged by node with each edge once, scoped by ref_ids and depth, Mermaid cut to whole lines', async () => {
    const whole = await tool<{ nodes_total: number; edges_total: number; nodes: NodeItem[] }>('get_graph', {});
    assert.equal(whole.json.nodes_total, 6);
    assert.equal(whole.json.nodes.flatMap((n) => n.out ?? []).length, whole.json.edges_total);
    const paged = await allPages<NodeItem>('get_graph', 'nodes', {}, 4);
    assert.equal(paged.pages, 2);
    assert.deepEqual(paged.items, whole.json.nodes);
    const scoped = await tool<{ nodes: NodeItem[] }>('get_graph', { ref_ids: ['checkout'], depth: 1 });
    assert.deepEqual(scoped.json.nodes.map((n) => n.ref_id).sort(), ['checkout', 'orders', 'payments-api']);
    const mermaid = await tool<{ nodes_total: number }>('get_graph', { format: 'mermaid' });
    assert.match(mermaid.texts[1] ?? '', /^graph LR\n {2}n0\["shopapp/);
    assert.match(mermaid.texts[1] ?? '', /n3 -->\|consumes\| n5/);
    const small = await tool<{ truncated?: string }>('get_graph', { format: 'mermaid', max_tokens: 200 });
    assert.match(small.json.truncated ?? '', /cut after \d+ of 15 lines/);
    assert.ok(mermaid.texts[1]!.startsWith(small.texts[1]!));
    const missing = await toolError('get_graph', { ref_ids: ['nope'] });
    assert.equal(missing.code, 'not_found');
    await withinBudget('get_graph', {});
    await withinBudget('get_graph', { format: 'mermaid' });
  });

  it('query: the context-query envelope with neighbours and previews, shortened to fit', async () => {
    const r = await tool<{ status: string; result: { concepts: Array<{ name: string; relevance: string }>; files: Array<{ preview: string }> } }>('query', { query: 'order' });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.status, 'success');
    assert.deepEqual(r.json.result.concepts[0], { id: 1, name: 'orders', type: 'domain', relevance: 'direct' });
    assert.ok(r.json.result.concepts.some((c) => c.relevance === 'neighbor'));
    assert.ok(r.json.result.files.some((f) => f.preview.includes('# Orders')));
    const blank = await toolError('query', { query: '   ' });
    assert.equal(blank.code, 'required');
    await withinBudget('query', { query: 'order' });
  });

  it('lint: findings with a summary, paged, narrowed to a node or a path; an unknown scope is not_found', async () => {
    const all = await tool<{ summary: { warnings: number; errors: number }; total: number; findings: Array<{ rule: string; file?: string }> }>('lint', {});
    assert.equal(all.json.summary.errors, 0);
    assert.equal(all.json.total, all.json.summary.warnings);
    assert.ok(all.json.findings.every((f) => f.rule === 'module-coverage'));
    const paged = await allPages<{ file?: string }>('lint', 'findings', {}, 1);
    assert.equal(paged.pages, all.json.total);
    assert.deepEqual(paged.items, all.json.findings);
    const node = await tool<{ findings: Array<{ file?: string }> }>('lint', { scope: 'orders' });
    assert.deepEqual(node.json.findings.map((f) => f.file), ['src/shopapp/orders/__init__.py']);
    const path = await tool<{ findings: Array<{ file?: string }> }>('lint', { scope: 'src/shopapp/catalog' });
    assert.ok(path.json.findings.length >= 1 && path.json.findings.every((f) => f.file?.startsWith('src/shopapp/catalog/')));
    assert.equal((await toolError('lint', { scope: 'nope' })).code, 'not_found');
    assert.equal((await toolError('lint', { scope: '../../etc' })).code, 'invalid_input');
    await withinBudget('lint', {});
  });

  it('sync_check and mark_synced: a dry run changes nothing; confirm: true marks; changed code turns a pair stale', async () => {
    const before = await tool<{ counts: Counts; pairs: Pair[] }>('sync_check', {});
    assert.equal(before.json.counts.untracked, 7);
    const paged = await allPages<Pair>('sync_check', 'pairs', {}, 3);
    assert.equal(paged.pages, 3);
    assert.deepEqual(paged.items, before.json.pairs);

    const dry = await tool<{ dry_run: boolean; would_mark: number; pairs: Array<{ doc_path: string }>; note: string }>('mark_synced', { ref_id: 'checkout' });
    assert.equal(dry.isError, false, dry.texts[0]);
    assert.equal(dry.json.dry_run, true);
    assert.equal(dry.json.would_mark, 1);
    assert.match(dry.json.note, /nothing was changed; call mark_synced again with confirm: true/);
    const unchanged = await tool<{ counts: Counts }>('sync_check', {});
    assert.deepEqual(unchanged.json.counts, before.json.counts, 'the dry run wrote nothing');

    const marked = await tool<{ marked: number; counts: Counts }>('mark_synced', { ref_id: 'checkout', confirm: true });
    assert.equal(marked.json.marked, 1);
    assert.equal(marked.json.counts.ok, 7);
    appendFileSync(join(root, 'src/shopapp/orders/checkout.py'), '\n# changed\n');
    const stale = await tool<{ counts: Counts; pairs: Pair[] }>('sync_check', { ref_id: 'checkout' });
    assert.equal(stale.json.counts.stale, 2, 'checkout.py is the code of the checkout and the orders pairs');
    assert.deepEqual(stale.json.pairs.map((p) => [p.ref_id, p.status]), [['checkout', 'stale']]);
    await withinBudget('sync_check', {});
    await withinBudget('mark_synced', { ref_id: 'orders' });
    assert.equal((await tool<{ counts: Counts }>('sync_check', {})).json.counts.stale, 2, 'the dry run at max_tokens=200 wrote nothing');

    for (const name of ['sync_check', 'mark_synced']) {
      const missing = await toolError(name, { ref_id: 'nope' });
      assert.equal(missing.code, 'not_found', name);
    }
  });

  it('refuses arguments over their caps before any work, naming the limit', async () => {
    const long = 'x'.repeat(4_097);
    for (const [name, args] of [['get_node', { ref_id: long }], ['lint', { scope: long }], ['sync_check', { ref_id: long }], ['mark_synced', { ref_id: long, confirm: true }],
      ['get_graph', { ref_ids: [long] }], ['list_nodes', { kind: 'x'.repeat(101) }], ['query', { query: 'x'.repeat(2_001) }], ['get_context', { ref_ids: ['orders'], etag: 'x'.repeat(101) }]] as const) {
      const e = await toolError(name, args);
      assert.equal(e.code, 'invalid_input', name);
      assert.match(e.message, /the limit is/, `${name}: ${e.message}`);
    }
    assert.equal((await toolError('get_graph', { ref_ids: Array(21).fill('orders') })).code, 'invalid_input');
  });

  it('get_context returns the etag of a bundle; sending it back gets the short unchanged reply', async () => {
    const first = await tool<{ etag?: string; bundle?: unknown }>('get_context', { ref_ids: ['orders'] });
    assert.equal(first.isError, false, first.texts[0]);
    assert.match(first.json.etag ?? '', /^sha256:[0-9a-f]{16}$/);
    const again = await tool<{ unchanged?: boolean; etag?: string; hint?: string }>('get_context', { ref_ids: ['orders'], etag: first.json.etag });
    assert.equal(again.json.unchanged, true);
    assert.equal(again.json.etag, first.json.etag);
    assert.ok(countTokens(again.texts[0]!) < 100, 'the unchanged reply is short');
    const other = await tool<{ etag?: string; bundle?: unknown }>('get_context', { ref_ids: ['orders'], etag: 'sha256:0000000000000000' });
    assert.ok(other.json.bundle, 'a stale etag gets the bundle');
    assert.equal(other.json.etag, first.json.etag);
    assert.equal((await toolError('get_context', { question: 'how are orders made?', etag: first.json.etag })).code, 'invalid_input');
    assert.equal((await toolError('get_context', { ref_ids: ['nope'] })).code, 'not_found');
    await withinBudget('get_context', { ref_ids: ['orders'] });
  });
});
