/**
 * The language server with two workspace folders: one engine per folder, requests routed by the folder a path names,
 * a question sent to the folder whose evidence answers it, paths out in VS Code's `folderName/path` form, and one
 * activity for the status bar. Real engines (sql.js, tree-sitter) on two real folders.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../src/core/engine';
import type { OracleNotificationMethod } from '../../src/protocol/language-server';
import type { AskResult } from '../../src/core/oracle/types';
import { combineActivity } from '../../src/server/combined-activity';
import { askEventsIn } from '../../src/server/folder-results';
import { createIndexSession } from '../../src/server/index-session';
import { createRequestHandlers, type RequestHandlers } from '../../src/server/request-handlers';
import { WorkspaceFolders } from '../../src/server/workspace-folders';
import { captureLogger, removeWorkspace, testEngine } from '../helpers/workspace';

const base = mkdtempSync(join(tmpdir(), 'co-multi-'));
const engines: Engine[] = [];
let handlers: RequestHandlers;
let folders: WorkspaceFolders;
const events: Array<{ method: OracleNotificationMethod; params: unknown }> = [];
const signal = new AbortController().signal;

/** A fixture folder copied under `name`, its dot-named files put in place as the integration harness does. */
function copyFixture(from: string, name: string): string {
  const root = join(base, name);
  cpSync(from, root, { recursive: true });
  const fix = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) {
        fix(p);
        if (n === 'dot-context-oracle') renameSync(p, join(dir, '.context-oracle'));
      } else if (n === 'dot-gitignore') renameSync(p, join(dir, '.gitignore'));
    }
  };
  fix(root);
  return root;
}

before(async () => {
  folders = new WorkspaceFolders();
  for (const [from, name] of [['test/integration/fixture-workspace', 'workspace'], ['test/integration/fixture-second-folder', 'ledger']] as const) {
    const root = copyFixture(from, name);
    const session = createIndexSession({
      root, settings: {}, logger: captureLogger(), notify: () => undefined,
      createEngine: (r) => { const e = testEngine(r); engines.push(e); return e; },
    });
    folders.add({ name, root, session });
  }
  handlers = createRequestHandlers(folders, (method, params) => { events.push({ method, params }); }, async () => ({}));
  await handlers['contextOracle/index']({}, signal);
});
after(async () => {
  for (const e of engines) await e.dispose();
  removeWorkspace(base);
});

test('a path routes to the folder its name starts with; the longest name wins; a bare ref_id goes to the first folder', () => {
  const f = new WorkspaceFolders();
  const session = folders.primary().session;
  f.add({ name: 'app', root: '/a', session });
  assert.deepEqual(f.route('src/x.ts'), { folder: f.primary(), path: 'src/x.ts' }, 'one folder: paths are plain');
  f.add({ name: 'app/web', root: '/b', session });
  assert.equal(f.route('app/web/src/x.ts').folder.name, 'app/web');
  assert.equal(f.route('app/web/src/x.ts').path, 'src/x.ts');
  assert.equal(f.route('app/src/x.ts').folder.name, 'app');
  assert.deepEqual(f.route('greeting'), { folder: f.primary(), path: 'greeting' });
  assert.equal(f.outPath(f.list()[1]!, 'src/x.ts'), 'app/web/src/x.ts');
});

test('a question whose answer is in the second folder is asked there and cites it as ledger/path:line', async () => {
  events.length = 0;
  const done = await handlers['contextOracle/ask']({ id: 'q1', question: 'How does settleAccount compute the account balance?' }, signal);
  const paths = done.result.citations.map((c) => c.path);
  assert.ok(paths.length > 0, 'cites something');
  assert.ok(paths.every((p) => p?.startsWith('ledger/')), `every citation names the ledger folder: ${paths.join(', ')}`);
  assert.ok(done.result.citations.some((c) => c.label.startsWith('ledger/src/ledger.ts:')), done.result.citations.map((c) => c.label).join(', '));
  // The streamed events name the folder as well (the panel renders them before the result arrives).
  const streamed = events.filter((e) => e.method === 'contextOracle/askEvent').map((e) => (e.params as { event: { type: string; citation?: { path?: string } } }).event);
  const cited = streamed.filter((e) => e.type === 'evidence').map((e) => e.citation?.path);
  assert.ok(cited.length > 0 && cited.every((p) => p?.startsWith('ledger/')), cited.join(', '));
  // The prose names files as the evidence does: those names carry the folder too (the panel makes them links),
  // and the streamed deltas add up to the final answer.
  assert.match(done.result.answer, /ledger\/src\/ledger\.ts:17/);
  assert.doesNotMatch(done.result.answer, /(?<!ledger\/)src\/ledger\.ts/, done.result.answer);
  const deltas = streamed.filter((e) => e.type === 'answer').map((e) => (e as unknown as { delta: string }).delta).join('');
  assert.equal(deltas, done.result.answer);
  // A question about the first folder still goes there.
  const greet = await handlers['contextOracle/ask']({ id: 'q2', question: 'What does the Greeter class greet people with?' }, signal);
  assert.ok(greet.result.citations.some((c) => c.path?.startsWith('workspace/src/greeter.ts')), greet.result.citations.map((c) => c.label).join(', '));
});

test('definitions are looked up in every folder and come back with the folder name', async () => {
  const defs = await handlers['contextOracle/definitions']({ symbol: 'settleAccount' }, signal);
  assert.deepEqual(defs.results.map((d) => [d.path, d.line]), [['ledger/src/ledger.ts', 17]]);
  const greeter = await handlers['contextOracle/definitions']({ symbol: 'Greeter' }, signal);
  assert.ok(greeter.results.some((d) => d.path === 'workspace/src/greeter.ts'));
  const refs = await handlers['contextOracle/references']({ symbol: 'Ledger' }, signal);
  assert.equal(refs.definition.path, 'ledger/src/ledger.ts');
  assert.ok(refs.results.every((r) => r.path.startsWith('ledger/')));
});

test('hover and CodeLens data for a file of either folder: routed by its folder name, ref_ids name the folder', async () => {
  const ledgerText = readFileSync(join(base, 'ledger', 'src/ledger.ts'), 'utf8');
  const ledger = await handlers['contextOracle/fileInsights']({ path: 'ledger/src/ledger.ts', text: ledgerText }, signal);
  assert.equal(ledger.path, 'ledger/src/ledger.ts');
  assert.deepEqual(ledger.symbols.map((s) => [s.ref_id, s.nodes.map((n) => n.ref_id)]), [['ledger/src/ledger.ts::Ledger', ['ledger']]]);
  const greeterText = readFileSync(join(base, 'workspace', 'src/greeter.ts'), 'utf8');
  const greeter = await handlers['contextOracle/fileInsights']({ path: 'workspace/src/greeter.ts', text: greeterText }, signal);
  assert.deepEqual(greeter.symbols.map((s) => [s.ref_id, s.nodes.map((n) => n.ref_id)]), [['workspace/src/greeter.ts::Greeter', ['greeting']]]);
  const at = await handlers['contextOracle/symbolAt']({ path: 'ledger/src/ledger.ts', line: 12 }, signal);
  assert.equal(at?.ref_id, 'ledger/src/ledger.ts::Ledger.balance');
  const why = await handlers['contextOracle/why']({ refId: 'ledger/src/ledger.ts::Ledger' }, signal);
  assert.ok(why, 'a ref_id naming the second folder is answered there');
});

test('search and the status add the folders up; the freshness stamp names queued files by folder', async () => {
  const hits = await handlers['contextOracle/search']({ query: 'balance payments', limit: 5 }, signal);
  assert.ok(hits[0]?.path.startsWith('ledger/'), hits.map((h) => h.path).join(', '));
  const status = await handlers['contextOracle/status']({}, signal);
  const each = await Promise.all(folders.list().map((f) => f.session.status()));
  assert.equal(status.index.files, each[0]!.index.files + each[1]!.index.files);
  assert.deepEqual(status.activity.folders?.map((f) => [f.name, f.state]), [['workspace', 'ready'], ['ledger', 'ready']]);
  const file = join(base, 'ledger', 'src/ledger.ts');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const edited = 1;\n`);
  await folders.byName('ledger')!.session.engine().noteChanges([{ path: 'src/ledger.ts' }]);
  const stamp = await handlers['contextOracle/freshness']({}, signal);
  assert.deepEqual(stamp.queued, ['ledger/src/ledger.ts']);
  assert.deepEqual((await handlers['contextOracle/status']({}, signal)).index.freshness?.queued, ['ledger/src/ledger.ts'], 'the status report too');
});

test('one activity for the status bar: any folder indexing makes the whole indexing, progress added up', () => {
  const a = combineActivity([
    { name: 'workspace', activity: { state: 'ready' } },
    { name: 'ledger', activity: { state: 'indexing', progress: { phase: 'parsing', done: 2, total: 5 } } },
    { name: 'docs', activity: { state: 'indexing', progress: { phase: 'parsing', done: 1, total: 3 } } },
  ]);
  assert.equal(a.state, 'indexing');
  assert.deepEqual(a.progress, { phase: 'parsing', done: 3, total: 8 });
  assert.deepEqual(a.folders?.map((f) => f.state), ['ready', 'indexing', 'indexing']);
  const one = { state: 'ready' as const };
  assert.equal(combineActivity([{ name: 'only', activity: one }]), one, 'one folder: its activity unchanged');
});

test('answer deltas: a path split between two deltas is still rewritten; what is held back comes out before done', () => {
  const rewrite = askEventsIn((p) => `ledger/${p}`);
  const evidence = { key: 'k', source: 'code', method: 'fulltext', path: 'src/a.ts', title: 't', text: '', relevance: 1, score: 1, reason: '' } as const;
  const citation = { n: 1, kind: 'code', label: 'src/a.ts:3', path: 'src/a.ts', line: 3, quote: '', title: 't', reason: '' } as const;
  const out = [
    ...rewrite({ type: 'evidence', n: 1, evidence, citation, ms: 1 }),
    ...rewrite({ type: 'answer', delta: 'See `src/', ms: 2 }),
    ...rewrite({ type: 'answer', delta: 'a.ts:3` and mysrc/a.ts', ms: 3 }),
  ];
  assert.equal((out[0] as { citation: { label: string } }).citation.label, 'ledger/src/a.ts:3');
  const result = { answer: 'See `src/a.ts:3` and mysrc/a.ts', citations: [citation], evidence: [evidence] } as unknown as AskResult;
  const end = rewrite({ type: 'done', result, ms: 4 });
  const text = [...out, ...end].filter((e) => e.type === 'answer').map((e) => (e as { delta: string }).delta).join('');
  assert.equal(text, 'See `ledger/src/a.ts:3` and mysrc/a.ts', 'a path inside a longer name is left alone');
  assert.equal((end.at(-1) as { result: AskResult }).result.answer, text);
});
