/**
 * The language server's request table, editor insights, change feed and editor navigation, on a real engine (sql.js,
 * tree-sitter) over the integration fixture workspace. The LSP library is not involved: the table takes AbortSignals
 * and sends notifications through a plain function, as the server wires it.
 */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import type { FreshnessStamp } from '../../src/core/model';
import type { AskEvent } from '../../src/core/oracle/types';
import { askThroughServer } from '../../src/extension/ask-through-server';
import { askForPanel } from '../../src/extension/panel/panel-ask';
import type { HostMessage } from '../../src/protocol/webview';
import type { AskParams, OracleNotificationMethod, OracleNotifications } from '../../src/protocol/language-server';
import { createEditorNavigation } from '../../src/server/editor-navigation';
import { createFreshnessFeed, validChanges } from '../../src/server/freshness-feed';
import { createIndexSession, type IndexSession } from '../../src/server/index-session';
import { createRequestHandlers, type RequestHandlers } from '../../src/server/request-handlers';
import { WorkspaceFolders } from '../../src/server/workspace-folders';
import { captureLogger, removeWorkspace, testEngine } from '../helpers/workspace';

/** The integration fixture, with its dot-named files put in place as the harness does. */
function copyIntegrationFixture(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'co-ext-')), 'ws');
  cpSync('test/integration/fixture-workspace', root, { recursive: true });
  const fix = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        fix(p);
        if (name === 'dot-context-oracle') renameSync(p, join(dir, '.context-oracle'));
      } else if (name === 'dot-gitignore') renameSync(p, join(dir, '.gitignore'));
    }
  };
  fix(root);
  return root;
}

let root: string;
let engine: Engine;
let sessionForLoopback: () => IndexSession;
let handlers: RequestHandlers;
const sent: Array<{ method: OracleNotificationMethod; params: unknown }> = [];
const signal = new AbortController().signal;

before(async () => {
  root = copyIntegrationFixture();
  const session = createIndexSession({
    root, settings: {}, logger: captureLogger(), notify: () => undefined,
    createEngine: (r) => { engine = testEngine(r); return engine; },
  });
  sessionForLoopback = () => session;
  handlers = createRequestHandlers(new WorkspaceFolders([{ name: 'workspace', root, session }]), <M extends OracleNotificationMethod>(method: M, params: OracleNotifications[M]) => { sent.push({ method, params }); }, async () => ({}));
  await handlers['contextOracle/index']({}, signal);
});
after(async () => {
  await engine.dispose();
  removeWorkspace(join(root, '..'));
});

test('ask streams its events as notifications keyed by the request id and answers with the done event, sent once', async () => {
  sent.length = 0;
  const done = await handlers['contextOracle/ask']({ id: 'q1', question: 'how does formatBanner frame the greeting?', session: 's1' }, signal);
  const events = sent.filter((s) => s.method === 'contextOracle/askEvent').map((s) => s.params as OracleNotifications['contextOracle/askEvent']);
  assert.ok(events.length >= 3);
  assert.ok(events.every((e) => e.id === 'q1'));
  assert.ok(events.some((e) => e.event.type === 'phase'));
  assert.ok(!events.some((e) => e.event.type === 'done'), 'the result does not cross twice');
  assert.equal(done.type, 'done');
  assert.ok(done.result.citations.some((c) => c.path === 'src/format.ts'), JSON.stringify(done.result.citations));
});

test('the extension reads an ask through the server as one stream: every event in order, done (with the result) last', async () => {
  // A loopback client: requests go to the real handler table, notifications to the subscribers, in order, as over LSP.
  const subscribers = new Set<(p: OracleNotifications['contextOracle/askEvent']) => void>();
  const loopback = createRequestHandlers(new WorkspaceFolders([{ name: 'workspace', root, session: sessionForLoopback() }]), (method, params) => {
    if (method === 'contextOracle/askEvent') for (const s of subscribers) s(params as OracleNotifications['contextOracle/askEvent']);
  }, async () => ({}));
  const client = {
    onNotification: (_method: string, handler: (p: OracleNotifications['contextOracle/askEvent']) => void) => {
      subscribers.add(handler);
      return { dispose: () => subscribers.delete(handler) };
    },
    request: (_method: string, params: AskParams) => loopback['contextOracle/ask'](params, signal),
  } as unknown as Parameters<typeof askThroughServer>[0];
  const seen: AskEvent[] = [];
  const result = await askThroughServer(client, { id: 'panel-1', question: 'how does formatBanner frame the greeting?' }, (e) => seen.push(e));
  assert.equal(seen.filter((e) => e.type === 'done').length, 1);
  assert.equal(seen.at(-1)!.type, 'done');
  assert.deepEqual((seen.at(-1) as Extract<AskEvent, { type: 'done' }>).result, result);
  assert.ok(seen.some((e) => e.type === 'answer') && seen.some((e) => e.type === 'phase'));
  assert.equal(subscribers.size, 0, 'the subscription ends with the ask');
});

test("the panel's Explain gets the per-signal scores with the answer: one request, one smart-context run", async () => {
  // The panel used to send contextOracle/context after the ask to get these scores: smart context ran twice.
  const requested: string[] = [];
  const loopback = createRequestHandlers(new WorkspaceFolders([{ name: 'workspace', root, session: sessionForLoopback() }]), () => undefined, async () => ({}));
  const client = {
    onNotification: () => ({ dispose: () => undefined }),
    request: (method: keyof RequestHandlers, params: never) => { requested.push(method); return loopback[method](params, signal); },
  } as unknown as Parameters<typeof askForPanel>[0];
  const facade = engine.getContextForQuestion.bind(engine);
  let facadeRuns = 0;
  engine.getContextForQuestion = ((...args: Parameters<Engine['getContextForQuestion']>) => { facadeRuns++; return facade(...args); }) as Engine['getContextForQuestion'];
  const posted: HostMessage[] = [];
  try {
    const result = await askForPanel(client, { id: 'panel-x', question: 'how does formatBanner frame the greeting?', explain: true }, (m) => posted.push(m));
    assert.deepEqual(requested, ['contextOracle/ask']);
    const oracleRuns = result.explain?.paths.filter((p) => p.method === 'context').length ?? 0;
    assert.equal(oracleRuns + facadeRuns, 1, 'smart context ran once for the ask and its explain view');
    const rows = result.explain?.signals ?? [];
    assert.ok(rows.length > 0, 'the explain data carries the scored nodes');
    assert.ok(rows.some((r) => r.path === 'src/format.ts'), JSON.stringify(rows.map((r) => r.path)));
    assert.ok(rows.every((r) => Object.keys(r.signals).length > 0 && r.reason && r.line >= 1));
    const done = posted.at(-1);
    assert.ok(done?.type === 'askEvent' && done.event.type === 'done' && done.event.result.explain?.signals?.length === rows.length, 'the webview gets them in the done event');
  } finally {
    engine.getContextForQuestion = facade;
  }
});

test('an aborted ask ends as cancelled', async () => {
  const c = new AbortController();
  c.abort();
  await assert.rejects(handlers['contextOracle/ask']({ id: 'q2', question: 'how does formatBanner frame the greeting?' }, c.signal), (e: unknown) => EngineError.is(e, 'cancelled'));
});

test('malformed params are typed errors, not crashes', async () => {
  await assert.rejects(handlers['contextOracle/ask']({ id: '', question: 'x' }, signal), (e: unknown) => EngineError.is(e, 'required'));
  await assert.rejects(handlers['contextOracle/bundle']({ refIds: 'greeting' as unknown as string[] }, signal), (e: unknown) => EngineError.is(e, 'invalid_input'));
  await assert.rejects(handlers['contextOracle/repoMap']({ maxTokens: -5 }, signal), (e: unknown) => EngineError.is(e, 'invalid_input'));
  await assert.rejects(handlers['contextOracle/why']({ refId: 'greetin' }, signal), (e: unknown) => EngineError.is(e, 'not_found') && (e.detail?.suggestions as string[]).includes('greeting'));
});

test('params are checked against the declared schemas: missing is required, wrong is invalid_input, both named', async () => {
  const rejects = async (call: Promise<unknown>, code: string, message: RegExp) =>
    assert.rejects(call, (e: unknown) => EngineError.is(e) && e.code === code && message.test(e.message), `${code} ${message}`);
  const h = handlers as unknown as Record<string, (params: unknown, signal: AbortSignal) => Promise<unknown>>;
  await rejects(h['contextOracle/ask']!(undefined, signal), 'required', /^id must be a non-empty string$/);
  await rejects(h['contextOracle/ask']!({ id: 'a', question: '   ' }, signal), 'required', /^question must be a non-empty string$/);
  await rejects(h['contextOracle/definitions']!({ symbol: 'x', limit: 0 }, signal), 'invalid_input', /^limit must be at least 1$/);
  await rejects(h['contextOracle/bundle']!({ refIds: ['a', 3] }, signal), 'invalid_input', /^refIds must be a list of strings$/);
  // Once ignored or replaced quietly; now refused, so a client's mistake shows.
  await rejects(h['contextOracle/context']!({ question: 'greeting', format: 'xml' }, signal), 'invalid_input', /^format must be mu, json or markdown$/);
  await rejects(h['contextOracle/fileInsights']!({ path: 'src/format.ts', text: 42 }, signal), 'invalid_input', /^text must be a string$/);
  await rejects(h['contextOracle/ask']!({ id: 'a', question: 'q', session: 7 }, signal), 'invalid_input', /^session must be a string$/);
  // Requests without params ignore what comes along; optional params may be left out altogether.
  assert.ok(Array.isArray((await h['contextOracle/lint']!({ junk: true }, signal) as { violations: unknown[] }).violations));
  assert.ok((await h['contextOracle/graphView']!(undefined, signal) as { nodes: unknown[] }).nodes.length > 0);
});

test('file insights: the annotated class, its node, dependents and no stale doc yet', async () => {
  const path = 'src/greeter.ts';
  const text = (await import('node:fs')).readFileSync(join(root, path), 'utf8');
  const r = await handlers['contextOracle/fileInsights']({ path, text }, signal);
  assert.equal(r.symbols.length, 1);
  const s = r.symbols[0]!;
  assert.equal(s.ref_id, 'src/greeter.ts::Greeter');
  assert.equal(s.line, 3);
  assert.equal(s.annotationLine, 2);
  assert.deepEqual(s.nodes.map((n) => [n.ref_id, n.kind, n.summary, n.dependents, n.staleDocs]), [['greeting', 'domain', 'Greets people by name', 2, []]]);
  assert.deepEqual((await handlers['contextOracle/fileInsights']({ path: 'src/format.ts', text: 'export const x = 1;\n' }, signal)).symbols, []);
});

test('problems: the rule violation; a stale doc once the code changes after a sync', async () => {
  await handlers['contextOracle/docSync']({}, signal);
  let p = await handlers['contextOracle/problems']({}, signal);
  assert.deepEqual(p.violations.map((v) => [v.rule, v.file]), [['feature-needs-domain', '.context-oracle/graph/architecture.yml']]);
  assert.deepEqual(p.staleDocs, []);
  writeFileSync(join(root, 'src/greeter.ts'), `${(await import('node:fs')).readFileSync(join(root, 'src/greeter.ts'), 'utf8')}\nexport const changed = 1;\n`);
  await engine.noteChanges([{ path: 'src/greeter.ts' }]);
  await handlers['contextOracle/syncNow']({}, signal);
  p = await handlers['contextOracle/problems']({}, signal);
  assert.deepEqual(p.staleDocs.map((s) => [s.ref_id, s.doc_path, s.code_path]), [['greeting', 'docs/greeting.md', 'src/greeter.ts']]);
  const text = (await import('node:fs')).readFileSync(join(root, 'src/greeter.ts'), 'utf8');
  const insights = await handlers['contextOracle/fileInsights']({ path: 'src/greeter.ts', text }, signal);
  assert.deepEqual(insights.symbols[0]!.nodes[0]!.staleDocs, ['docs/greeting.md']);
  await handlers['contextOracle/docSync']({ mark: ['greeting'] }, signal);
  assert.deepEqual((await handlers['contextOracle/problems']({}, signal)).staleDocs, []);
});

test('ref_id suggestions and the symbol around a line', async () => {
  // With nothing typed: the declared nodes first, then the repo map's files and their symbols (listed at once).
  const all = await handlers['contextOracle/refIds']({ limit: 500 }, signal);
  assert.deepEqual(all.slice(0, 4).map((s) => s.ref_id).sort(), ['app', 'banners', 'greeting', 'reporting']);
  assert.ok(all.some((s) => s.ref_id === 'src/greeter.ts' && s.kind === 'file'), JSON.stringify(all));
  assert.ok(all.some((s) => s.ref_id === 'src/greeter.ts::Greeter' && s.kind === 'class'), JSON.stringify(all));
  const typed = await handlers['contextOracle/refIds']({ query: 'formatBanner' }, signal);
  assert.ok(typed.some((s) => s.ref_id === 'src/format.ts::formatBanner'), JSON.stringify(typed));
  assert.equal((await handlers['contextOracle/symbolAt']({ path: 'src/greeter.ts', line: 7 }, signal))?.ref_id, 'src/greeter.ts::Greeter.greet');
  assert.equal((await handlers['contextOracle/symbolAt']({ path: 'src/greeter.ts', line: 1 }, signal)), null);
});

test('the change feed drops paths outside the workspace and the index folder, queues the rest and publishes the stamp', async () => {
  assert.deepEqual(validChanges({ changes: [{ path: 'src/a.ts' }, { path: '/etc/passwd' }, { path: '../x.ts' }, { path: 'a/../../x' }, { path: '.context-oracle/index.db' },
    { path: 'C:/x.ts' }, { path: 'tools/gone.py', kind: 'deleted' }, { path: 7 }, null] }),
  [{ path: 'src/a.ts', kind: 'changed' }, { path: 'tools/gone.py', kind: 'deleted' }]);
  assert.deepEqual(validChanges('nonsense'), []);
  const stamps: FreshnessStamp[] = [];
  const feed = createFreshnessFeed(() => engine, (s) => stamps.push(s), captureLogger(), 60_000);
  try {
    // Only a file that differs from the index is queued: a notice for it unchanged is dropped, a saved edit queues.
    await feed.changes({ changes: [{ path: 'src/format.ts' }] });
    assert.deepEqual(stamps.at(-1)?.queued ?? [], []);
    writeFileSync(join(root, 'src/format.ts'), `${(await import('node:fs')).readFileSync(join(root, 'src/format.ts'), 'utf8')}\nexport const edited = 1;\n`);
    await feed.changes({ changes: [{ path: 'src/format.ts' }] });
    assert.deepEqual(stamps.at(-1)?.queued, ['src/format.ts']);
    await handlers['contextOracle/syncNow']({}, signal);
    await feed.publish();
    assert.deepEqual(stamps.at(-1)?.queued, []);
  } finally {
    feed.dispose();
  }
});

test('editor navigation: answers pass through; a slow editor times out; an abort is a cancellation', async () => {
  const loc = { path: 'src/a.ts', line: 1, column: 1 };
  const ok = createEditorNavigation(async () => [loc], captureLogger());
  assert.deepEqual(await ok.definitions(loc), [loc]);
  const logger = captureLogger();
  const slow = createEditorNavigation(() => new Promise(() => undefined), logger, 50);
  await assert.rejects(slow.references(loc), /longer than 50 ms/);
  assert.ok(logger.lines.some((l) => l.startsWith('info: contextOracle/nav/references')), logger.lines.join('\n'));
  const c = new AbortController();
  const pending = slow.workspaceSymbols('x', c.signal);
  c.abort();
  await assert.rejects(pending, (e: unknown) => EngineError.is(e, 'cancelled'));
  const bad = createEditorNavigation(async () => 'nope' as never, captureLogger());
  await assert.rejects(bad.implementations(loc), /not a list/);
});

test('cancelIndex stops a run the client started without a token; the previous index stays', async () => {
  const before = await handlers['contextOracle/status']({}, signal);
  const run = handlers['contextOracle/index']({ full: true }, signal);
  const { cancelled } = await handlers['contextOracle/cancelIndex']({}, signal);
  assert.equal(cancelled, 1);
  await assert.rejects(run, (e: unknown) => EngineError.is(e, 'cancelled'));
  const now = await handlers['contextOracle/status']({}, signal);
  assert.equal(now.index.files, before.index.files);
  assert.equal(now.activity.state, 'ready');
  assert.deepEqual(await handlers['contextOracle/cancelIndex']({}, signal), { cancelled: 0 });
});
