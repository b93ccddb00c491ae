/**
 * The MCP server's tools through the SDK's own client over stdio: listing, each tool on a fixture workspace, every
 * error code, the path guard, paging under a token budget, ten concurrent calls, and the session record.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '../../src/core/tokens';
import { removeWorkspace } from '../helpers/workspace';
import { call, copyFixture, serve, type ErrorBody, type Served } from './mcp-harness';

interface Page {
  offset: number;
  returned: number;
  total?: number;
  next_cursor?: string;
  note?: string;
}
interface Listed<T> {
  results: T[];
  page?: Page;
}
interface SearchResult { path: string; line: number; symbol?: string; kind: string }
interface DefinitionResult { symbol: string; kind: string; path: string; line: number; endLine: number; signature: string }
interface ReferenceResult { path: string; line: number; kind: string; in?: string; proximity: string; code: string }

const root = copyFixture();
const outside = mkdtempSync(join(tmpdir(), 'co-mcp-outside-'));
// A symlink inside the workspace that points out of it: following it must not escape the root.
symlinkSync(outside, join(root, 'escape'));
let served: Served;
let calls = 0;

async function tool<T = Record<string, unknown>>(name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void) {
  calls++;
  return call<T>(served.client, name, args, onprogress);
}

async function toolError(name: string, args: Record<string, unknown>): Promise<ErrorBody> {
  const r = await tool<ErrorBody>(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got ${r.texts[0]}`);
  return r.json;
}

before(async () => {
  served = await serve(root);
});
after(async () => {
  await served?.close();
  removeWorkspace(root);
  removeWorkspace(outside);
});

describe('MCP server over stdio', () => {
  it('waits for the startup index on the first call and reports progress', async () => {
    const progress: Progress[] = [];
    const r = await tool<Listed<SearchResult>>('search_code', { query: 'route' }, (p) => progress.push(p));
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.results[0]?.path, 'src/router.ts', 'answered from the fresh index, not from nothing');
    assert.ok(progress.length >= 1, 'progress notifications arrive while the call waits for indexing');
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.progress > progress[i - 1]!.progress, 'progress only grows');
    assert.match(progress.at(-1)!.message ?? '', /indexing the workspace/);
  });

  it('lists the tools with small schemas, max_tokens everywhere, limit and cursor on lists', async () => {
    const { tools } = await served.client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['ask_oracle', 'find_definition', 'find_references', 'get_context', 'get_graph', 'get_node', 'get_repo_map', 'index_status', 'lint', 'list_nodes', 'mark_synced', 'query', 'search_code', 'sync_check', 'why']);
    for (const t of tools) {
      const props = t.inputSchema.properties as Record<string, unknown>;
      assert.ok(props.max_tokens, `${t.name} takes max_tokens`);
      assert.ok(t.description && t.description.length > 80 && /token/i.test(t.description), `${t.name} says what it costs`);
      assert.ok(countTokens(JSON.stringify(t)) < 600, `${t.name} schema stays small`);
    }
    for (const name of ['search_code', 'find_definition', 'find_references']) {
      const props = tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, unknown>;
      assert.ok(props.limit && props.cursor, `${name} pages with limit and cursor`);
    }
    assert.deepEqual(tools.find((t) => t.name === 'search_code')!.inputSchema.required, ['query']);
  });

  it('search_code: ranked chunks, kind and path filters', async () => {
    const all = await tool<Listed<SearchResult>>('search_code', { query: 'route' });
    assert.deepEqual({ ...all.json.results[0], score: 0, snippet: '' }, {
      path: 'src/router.ts', line: 19, endLine: 21, symbol: 'route', kind: 'function',
      signature: 'function route(router: Router, path: string): void', score: 0, snippet: '',
    });
    const py = await tool<Listed<SearchResult>>('search_code', { query: 'route', path: 'lib' });
    assert.ok(py.json.results.length >= 1);
    assert.ok(py.json.results.every((h) => h.path.startsWith('lib/')));
    const classes = await tool<Listed<SearchResult>>('search_code', { query: 'session store', kind: 'class' });
    assert.equal(classes.json.results[0]?.symbol, 'SessionStore');
    assert.ok(classes.json.results.every((h) => h.kind === 'class'));
    const none = await tool<Listed<SearchResult> & { hint?: string }>('search_code', { query: 'kubernetes' });
    assert.equal(none.isError, false);
    assert.deepEqual(none.json.results, []);
    assert.match(none.json.hint ?? '', /no match/);
  });

  it('find_definition: qualified names, canonical first, path filter', async () => {
    const r = await tool<Listed<DefinitionResult>>('find_definition', { symbol: 'HttpServer.listen' });
    assert.deepEqual(r.json.results, [{
      symbol: 'HttpServer.listen', kind: 'method', path: 'src/server.ts', line: 9, endLine: 11,
      signature: 'listen(port: number): void', source: 'index',
    }]);
    const scoped = await tool<Listed<DefinitionResult>>('find_definition', { symbol: 'route', path: 'src' });
    assert.equal(scoped.json.results[0]?.path, 'src/router.ts');
  });

  it('find_references: callers, proximity, total', async () => {
    const r = await tool<Listed<ReferenceResult> & { definition: DefinitionResult; total: number }>('find_references', { symbol: 'SessionStore' });
    assert.equal(r.json.definition.path, 'src/auth/session.ts');
    assert.equal(r.json.total, r.json.results.length);
    assert.ok(r.json.results.some((x) => x.path === 'src/auth/login.ts' && x.line === 5 && x.in === 'login' && x.kind === 'type'));
    assert.ok(r.json.results.every((x) => x.code.includes('SessionStore')));
    const scoped = await tool<Listed<ReferenceResult> & { total: number }>('find_references', { symbol: 'route', path: 'src/auth/login.ts' });
    assert.ok(scoped.json.total >= 2);
    assert.ok(scoped.json.results.every((x) => x.path === 'src/auth/login.ts'));
  });

  it('get_repo_map: ranked signatures within the budget, scoped, focused', async () => {
    const r = await tool<{ scope: string; files: number; map_tokens: number }>('get_repo_map', { max_tokens: 600 });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.scope, '.');
    assert.match(r.texts[1] ?? '', /class SessionStore/);
    assert.ok(countTokens(r.texts.join('')) <= 600);
    const scoped = await tool('get_repo_map', { scope: 'src/auth', focus: 'login' });
    const map = scoped.texts[1] ?? '';
    assert.match(map, /src\/auth\/login\.ts/);
    assert.doesNotMatch(map, /src\/router\.ts|lib\/config\.py/);
    const tiny = await tool<{ note?: string; ranked_entries: { shown: number; total: number } }>('get_repo_map', { max_tokens: 200 });
    assert.ok(tiny.json.ranked_entries.shown < tiny.json.ranked_entries.total);
    assert.match(tiny.json.note ?? '', /raise max_tokens/);
    assert.ok(countTokens(tiny.texts.join('')) <= 200);
  });

  it('get_context: the code for a question within the budget, or the bundle of graph nodes', async () => {
    const r = await tool<{ question: string; token_count: number; files: { path: string }[]; left_out?: { count: number } }>('get_context', { question: 'how does login open a session', max_tokens: 700 });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.files[0]?.path, 'src/auth/login.ts');
    assert.match(r.texts[1] ?? '', /export function login\(store: SessionStore/, 'the definition itself, as source');
    assert.ok(countTokens(r.texts.join('')) <= 700);
    assert.ok((r.json.left_out?.count ?? 0) > 0, 'says what the budget left out');
    const bigger = await tool<{ token_count: number }>('get_context', { question: 'how does login open a session', max_tokens: 4000 });
    assert.ok(bigger.json.token_count > r.json.token_count, 'a bigger budget shows more');

    const bundle = await tool<{ ref_ids: string[]; bundle: { focus: { ref_id: string }; graph: { nodes: { ref_id: string }[] }; code_symbols: { file_path: string }[]; text_chunks: { doc_path: string }[] } }>('get_context', { ref_ids: ['auth'] });
    assert.equal(bundle.isError, false, bundle.texts[0]);
    assert.equal(bundle.json.bundle.focus.ref_id, 'auth');
    assert.deepEqual(bundle.json.bundle.graph.nodes.map((n) => n.ref_id).sort(), ['auth', 'config', 'http', 'shop']);
    assert.ok(bundle.json.bundle.code_symbols.some((c) => c.file_path === 'src/auth/login.ts'));
    assert.ok(bundle.json.bundle.text_chunks.some((c) => c.doc_path === 'docs/overview.md'));
    const small = await tool('get_context', { ref_ids: ['auth'], max_tokens: 300 });
    assert.ok(countTokens(small.texts.join('')) <= 300);
    const symbol = await tool<{ bundle: { focus: { ref_id: string } } }>('get_context', { ref_ids: ['src/auth/login.ts::login'] });
    assert.equal(symbol.json.bundle.focus.ref_id, 'src/auth/login.ts::login');
  });

  it('why: upstream and downstream of a node, cut to the budget by max_nodes', async () => {
    const r = await tool<{ node: { ref_id: string }; upstream: { ref_id: string }[]; downstream: { ref_id: string }[]; impact: { downstream_direct: number } }>('why', { ref_id: 'auth' });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.node.ref_id, 'auth');
    assert.deepEqual(r.json.upstream.map((n) => n.ref_id), ['shop']);
    assert.ok(r.json.downstream.some((n) => n.ref_id === 'http'), 'http uses auth');
    assert.ok(r.json.impact.downstream_direct >= 1);
    const code = await tool<{ downstream: unknown[]; truncated: boolean; note?: string }>('why', { ref_id: 'src/router.ts', max_tokens: 200 });
    assert.equal(code.isError, false, code.texts[0]);
    assert.ok(countTokens(code.texts[0]!) <= 200);
    assert.match(code.json.note ?? '', /max_nodes lowered to \d+ to fit max_tokens=200/);
  });

  it('ask_oracle: a cited answer that builds on the session\'s earlier calls', async () => {
    // The conversation's subject comes from the previous call: "it" is SessionStore.
    await tool('find_definition', { symbol: 'SessionStore' });
    const r = await tool<{ mode: string; answer: string; citations: { n: number; label: string; quote: string }[]; sources: { source: string; status: string }[] }>('ask_oracle', { question: 'where is it used?', sources: ['code'] });
    assert.equal(r.isError, false, r.texts[0]);
    assert.equal(r.json.mode, 'extractive', 'no model is configured in the fixture');
    assert.ok(r.json.citations.length > 0);
    assert.ok(r.json.citations.some((c) => /^src\/(auth\/login|router|server)\.ts:/.test(c.label) && c.quote.includes('SessionStore')), JSON.stringify(r.json.citations));
    assert.deepEqual(r.json.sources.filter((s) => s.status === 'ok').map((s) => s.source), ['code']);
    const small = await tool<{ citations: unknown[]; citations_left_out?: number }>('ask_oracle', { question: 'How does login open a session?', max_tokens: 300 });
    assert.ok(countTokens(small.texts[0]!) <= 300);
  });

  it('index_status: counts and the background indexing state', async () => {
    const r = await tool<{ exists: boolean; files: number; filesByLanguage: Record<string, number>; indexing: { state: string } }>('index_status', {});
    assert.equal(r.json.exists, true);
    assert.equal(r.json.files, 5);
    assert.deepEqual(r.json.filesByLanguage, { python: 1, typescript: 4 });
    assert.equal(r.json.indexing.state, 'idle');
  });

  it('errors: required, invalid_input, not_found, each with a message a model can act on', async () => {
    const missing = await toolError('search_code', {});
    assert.equal(missing.code, 'required');
    assert.match(missing.message, /`query`/);
    assert.equal((await toolError('find_definition', { limit: 3 })).code, 'required');
    assert.equal((await toolError('find_references', {})).code, 'required');

    const typo = await toolError('search_code', { qeury: 'route', query: 'route' });
    assert.equal(typo.code, 'invalid_input');
    assert.match(typo.message, /does not take `qeury`/);
    assert.ok(typo.suggestions?.includes('query'));
    const badLimit = await toolError('find_references', { symbol: 'route', limit: 0 });
    assert.equal(badLimit.code, 'invalid_input');
    assert.match(badLimit.message, /`limit`/);
    assert.equal((await toolError('search_code', { query: 'route', kind: 'banana' })).code, 'invalid_input');
    assert.equal((await toolError('search_code', { query: 'route', max_tokens: 30_000 })).code, 'invalid_input', 'the hard cap is not negotiable');
    assert.equal((await toolError('search_code', { query: 'route', cursor: 'not-a-cursor' })).code, 'invalid_input');
    assert.equal((await toolError('find_definition', { symbol: 'foo bar!' })).code, 'invalid_input');

    const unknown = await toolError('find_definition', { symbol: 'SessionStor' });
    assert.equal(unknown.code, 'not_found');
    assert.ok(unknown.suggestions?.includes('SessionStore'));
    const noPath = await toolError('search_code', { query: 'route', path: 'src/auht' });
    assert.equal(noPath.code, 'not_found');
    assert.ok(noPath.suggestions?.includes('src/auth'), JSON.stringify(noPath));
    assert.equal((await toolError('get_context', {})).code, 'required');
    assert.equal((await toolError('ask_oracle', { question: 'x', sources: ['web'] })).code, 'invalid_input');
    assert.equal((await toolError('get_context', { question: 'x', ref_ids: ['auth'] })).code, 'invalid_input');
    const noNode = await toolError('why', { ref_id: 'autth' });
    assert.equal(noNode.code, 'not_found');
    assert.ok(noNode.suggestions?.includes('auth'));
    const noTool = await toolError('search_cod', {});
    assert.equal(noTool.code, 'not_found');
    assert.equal(noTool.suggestions?.[0], 'search_code');
  });

  it('path guard: ../ escapes, absolute paths outside and symlinks out are refused; inside is fine', async () => {
    for (const path of ['../', '../../etc', 'src/../../x', '/etc', outside, 'escape', 'escape/inner']) {
      const e = await toolError('search_code', { query: 'route', path });
      assert.equal(e.code, 'invalid_input', `${path}: ${e.message}`);
      assert.match(e.message, /must be inside the workspace/);
    }
    assert.equal((await toolError('get_repo_map', { scope: '../..' })).code, 'invalid_input');
    assert.equal((await toolError('find_references', { symbol: 'route', path: '/tmp' })).code, 'invalid_input');
    const abs = await tool<Listed<SearchResult>>('search_code', { query: 'session', path: join(root, 'src', 'auth') });
    assert.equal(abs.isError, false, abs.texts[0]);
    assert.ok(abs.json.results.length > 0 && abs.json.results.every((h) => h.path.startsWith('src/auth/')));
    const roundabout = await tool<Listed<SearchResult>>('search_code', { query: 'session', path: 'src/../src/auth' });
    assert.deepEqual(roundabout.json.results, abs.json.results);
  });

  it('pages an answer that does not fit max_tokens and the cursor walks to the end', async () => {
    const whole = await tool<Listed<SearchResult>>('search_code', { query: 'route path' });
    assert.ok(whole.json.results.length >= 6, 'enough results to page');
    assert.equal(whole.json.page, undefined, 'nothing cut at the default budget');
    const seen: SearchResult[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await tool<Listed<SearchResult>>('search_code', { query: 'route path', max_tokens: 250, ...(cursor ? { cursor } : {}) });
      assert.equal(r.isError, false, r.texts[0]);
      assert.ok(countTokens(r.texts.join('')) <= 250, 'each page within max_tokens');
      assert.equal(r.json.page?.offset, seen.length);
      seen.push(...r.json.results);
      cursor = r.json.page?.next_cursor;
      if (cursor) assert.match(r.json.page?.note ?? '', /did not fit in max_tokens=250.*cursor/);
      pages++;
    } while (cursor && pages < 50);
    assert.ok(pages >= 3, `paged (${pages} pages)`);
    assert.deepEqual(seen, whole.json.results, 'the pages together are the whole answer, in order');

    // Pages by limit, with the total known up front; a page size may change between pages.
    const first = await tool<Listed<ReferenceResult> & { total: number }>('find_references', { symbol: 'SessionStore', limit: 2 });
    assert.equal(first.json.page?.total, first.json.total);
    assert.match(first.json.page?.note ?? '', /limit stopped this page/);
    const rest = await tool<Listed<ReferenceResult>>('find_references', { symbol: 'SessionStore', limit: 50, cursor: first.json.page!.next_cursor });
    const all = await tool<Listed<ReferenceResult>>('find_references', { symbol: 'SessionStore' });
    assert.deepEqual([...first.json.results, ...rest.json.results], all.json.results);

    const foreign = await toolError('find_references', { symbol: 'Router', cursor: first.json.page!.next_cursor });
    assert.equal(foreign.code, 'invalid_input');
    assert.match(foreign.message, /different arguments/);
  });

  it('answers ten concurrent calls correctly', async () => {
    const requests: [string, Record<string, unknown>][] = [
      ['search_code', { query: 'route' }],
      ['search_code', { query: 'parse config', path: 'lib' }],
      ['search_code', { query: 'login password' }],
      ['find_definition', { symbol: 'SessionStore' }],
      ['find_definition', { symbol: 'Router.match' }],
      ['find_references', { symbol: 'route' }],
      ['find_references', { symbol: 'Router', limit: 3 }],
      ['get_repo_map', { scope: 'src', max_tokens: 400 }],
      ['find_definition', { symbol: 'parse_config' }],
      ['find_definition', { symbol: 'Nonexistent' }],
    ];
    const sequential: Awaited<ReturnType<typeof tool>>[] = [];
    for (const [name, args] of requests) sequential.push(await tool(name, args));
    const concurrent = await Promise.all(requests.map(([name, args]) => tool(name, args)));
    concurrent.forEach((r, i) => assert.deepEqual(r.texts, sequential[i]!.texts, `${requests[i]![0]} answered alike`));
    assert.equal(concurrent[9]!.isError, true);
    assert.equal(concurrent.filter((r) => r.isError).length, 1);
  });

  it('keeps one session record of every call', async () => {
    const r = await tool<{ session: { calls: number; items: number; byTool: Record<string, number> } }>('index_status', {});
    // This call is recorded after its answer is built, so the count covers every earlier call.
    assert.equal(r.json.session.calls, calls - 1);
    assert.ok(r.json.session.byTool.search_code! > 5);
    assert.ok(r.json.session.items > 10, 'returned items are remembered for later calls');
  });
});
