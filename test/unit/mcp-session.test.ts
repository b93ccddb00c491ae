/** The MCP session record and the index gate (background indexing policy) over a real engine. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import type { IndexProgress } from '../../src/core/model';
import { IndexGate } from '../../src/mcp/index-gate';
import { progressReporter } from '../../src/mcp/progress';
import { McpSession, type SessionCall } from '../../src/mcp/session';
import { captureLogger, makeWorkspace, removeWorkspace, testEngine, indexPathOf } from '../helpers/workspace';

const roots: string[] = [];
const engines: Engine[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

/** A real engine over a small workspace, with its index runs counted. */
function countedEngine(): { engine: Engine; runs: () => number } {
  const root = makeWorkspace({ 'src/a.ts': 'export function alpha() { return 1; }\n', 'src/b.py': 'def beta():\n    return 2\n' });
  roots.push(root);
  const real = testEngine(root);
  engines.push(real);
  let runs = 0;
  const engine: Engine = { ...real, index: (o) => { runs++; return real.index(o); } };
  return { engine, runs: () => runs };
}

describe('MCP session', () => {
  it('records calls and items, most recent first, and forgets the oldest beyond its limits', () => {
    const s = new McpSession({ maxCalls: 3, maxItems: 4 });
    const heard: SessionCall[] = [];
    s.memory = { onToolCall: (c) => { heard.push(c); } };
    const at = new Date().toISOString();
    s.record({ seq: s.nextSeq(), tool: 'search_code', args: { query: 'a' }, at, ok: true, tokens: 10 }, [{ ref: 'a.ts:1', path: 'a.ts', line: 1 }, { ref: 'b.ts:2' }]);
    s.record({ seq: s.nextSeq(), tool: 'find_definition', args: { symbol: 'x' }, at, ok: true, tokens: 5 }, [{ ref: 'a.ts:1' }, { ref: 'c.ts#X' }]);
    assert.deepEqual(s.recentItems().map((i) => i.ref), ['c.ts#X', 'a.ts:1', 'b.ts:2']);
    assert.deepEqual(s.item('a.ts:1')?.seenIn, [1, 2]);
    assert.equal(s.item('a.ts:1')?.path, 'a.ts', 'what was known before is kept');
    s.record({ seq: s.nextSeq(), tool: 'search_code', args: {}, at, ok: false, error: 'required', tokens: 0 });
    s.record({ seq: s.nextSeq(), tool: 'why', args: {}, at, ok: true, tokens: 1 }, [{ ref: 'd' }, { ref: 'e' }]);
    assert.deepEqual(s.history().map((c) => c.seq), [2, 3, 4]);
    assert.deepEqual(s.recentItems().map((i) => i.ref), ['e', 'd', 'c.ts#X', 'a.ts:1']);
    assert.deepEqual(s.summary().byTool, { find_definition: 1, search_code: 1, why: 1 });
    return new Promise<void>((resolve) => setImmediate(() => {
      assert.equal(heard.length, 4, 'the conversation memory hears of every call');
      resolve();
    }));
  });
});

describe('MCP index gate', () => {
  it('builds a missing index once for every waiting call, with progress', async () => {
    const { engine, runs } = countedEngine();
    const gate = new IndexGate(engine, captureLogger(), { autoIndex: true, refreshIntervalMs: 60_000, maxWaitMs: 60_000 });
    const seen: IndexProgress[] = [];
    await Promise.all([gate.ready((p) => seen.push(p)), gate.ready(), gate.ready()]);
    assert.equal(runs(), 1);
    assert.equal((await engine.status()).files, 2);
    assert.deepEqual([...new Set(seen.map((p) => p.phase))], ['walking', 'parsing', 'persisting', 'done']);
    await gate.ready();
    assert.equal(runs(), 1, 'fresh enough: no second run within the refresh interval');
    assert.equal(gate.activity().state, 'idle');
  });

  it('answers at once from an existing index while the startup refresh is still running', async () => {
    const { engine } = countedEngine();
    await engine.index();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const slow: Engine = { ...engine, index: async (o) => { await held; return engine.index(o); } };
    const gate = new IndexGate(slow, captureLogger(), { autoIndex: true, refreshIntervalMs: 0, maxWaitMs: 60_000 });
    gate.start();
    const answered = await Promise.race([gate.ready().then(() => 'answered'), new Promise((r) => setTimeout(() => r('waited'), 2_000))]);
    assert.equal(answered, 'answered');
    assert.equal(gate.activity().state, 'indexing', 'the refresh is still under way');
    release();
    await gate.dispose();
  });

  it('loads what questions need once the startup run is done, and a warm-up without an index does nothing', async () => {
    const root = makeWorkspace({ 'src/a.ts': 'export function alpha() { return 1; }\n', 'src/b.py': 'def beta():\n    return 2\n' });
    roots.push(root);
    const log = captureLogger();
    const real = testEngine(root, {}, log);
    engines.push(real);
    await real.warm();
    assert.ok(log.lines.some((l) => /^debug: warm-up skipped: .*no index/.test(l)), log.lines.join('\n'));
    const warmedAfter: boolean[] = [];
    const engine: Engine = { ...real, warm: async () => { warmedAfter.push((await real.status()).exists); return real.warm(); } };
    const gate = new IndexGate(engine, captureLogger(), { autoIndex: true, refreshIntervalMs: 60_000, maxWaitMs: 60_000 });
    gate.start();
    await gate.ready();
    // Bounded, so a gate that never warms fails here instead of hanging the run.
    for (let i = 0; i < 2_000 && !log.lines.some((l) => l.startsWith('debug: warm-up: ')); i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(warmedAfter, [true], 'warmed once, after the index was built');
    assert.ok(log.lines.some((l) => /^debug: warm-up: 2 files ready for questions/.test(l)), log.lines.join('\n'));
  });

  it('waits for the rebuild of a damaged index', async () => {
    const { engine, runs } = countedEngine();
    await engine.index();
    writeFileSync(indexPathOf(engine.root), 'not a database');
    const gate = new IndexGate(engine, captureLogger(), { autoIndex: true, refreshIntervalMs: 60_000, maxWaitMs: 60_000 });
    await gate.ready();
    assert.equal(runs(), 2);
    assert.equal((await engine.status()).files, 2, 'rebuilt before the query went on');
  });

  it('without a watcher refreshes in the background once the interval has passed, without waiting; with one never', async () => {
    const { engine, runs } = countedEngine();
    let now = 1_000;
    const gate = new IndexGate(engine, captureLogger(), { autoIndex: true, refreshIntervalMs: 30_000, maxWaitMs: 60_000, now: () => now });
    gate.start();
    await gate.ready();
    while (gate.activity().state === 'indexing') await new Promise((r) => setTimeout(r, 5));
    assert.equal(runs(), 1);
    now += 29_000;
    await gate.ready();
    assert.equal(runs(), 1);
    now += 2_000;
    await gate.ready();
    assert.equal(runs(), 2);
    assert.equal(gate.activity().state, 'indexing', 'the query did not wait for the refresh');
    while (gate.activity().state === 'indexing') await new Promise((r) => setTimeout(r, 5));
    gate.setWatching(true);
    now += 60_000;
    await gate.ready();
    assert.equal(runs(), 2, 'a watched workspace is not polled');
    assert.equal(gate.activity().watching, true);
  });

  it('stops waiting after maxWaitMs and reports the run under way', async () => {
    const { engine } = countedEngine();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const slow: Engine = { ...engine, index: async (o) => { await held; return engine.index(o); } };
    const gate = new IndexGate(slow, captureLogger(), { autoIndex: true, refreshIntervalMs: 0, maxWaitMs: 50 });
    const started = Date.now();
    await gate.ready();
    assert.ok(Date.now() - started < 5_000);
    assert.equal(gate.activity().state, 'indexing');
    assert.equal(gate.describeRun(), 'starting');
    release();
    await gate.dispose();
  });

  it('with autoIndex off never indexes', async () => {
    const { engine, runs } = countedEngine();
    const gate = new IndexGate(engine, captureLogger(), { autoIndex: false, refreshIntervalMs: 0, maxWaitMs: 1_000 });
    gate.start();
    await gate.ready();
    assert.equal(runs(), 0);
    assert.equal(gate.activity().state, 'disabled');
  });
});

describe('MCP progress notifications', () => {
  it('map index phases onto one increasing scale, only for requests with a progressToken', async () => {
    const sent: { progress: number; total?: number; message?: string }[] = [];
    const report = progressReporter({ progressToken: 7, send: async (n) => { sent.push(n.params); } })!;
    const phases: IndexProgress[] = [
      { phase: 'walking', done: 0, total: 0 }, { phase: 'parsing', done: 0, total: 10 }, { phase: 'parsing', done: 5, total: 10 },
      { phase: 'parsing', done: 5, total: 10 }, { phase: 'persisting', done: 10, total: 10 }, { phase: 'done', done: 10, total: 10 },
    ];
    phases.forEach((p) => report.index(p));
    report.step('searching code');
    report.step('synthesising');
    assert.deepEqual(sent.map((s) => s.progress), [0, 5, 10.5, 11, 12, 13], 'tool steps continue after the index');
    assert.ok(sent.slice(1, 4).every((s) => s.total === 11));
    assert.match(sent[1]!.message!, /parsing 5\/10 files/);
    assert.equal(sent[5]!.message, 'synthesising');
    assert.equal(progressReporter({ send: async () => undefined }), undefined);
  });
});
