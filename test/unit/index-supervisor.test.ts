/** The index supervisor the MCP server and the language server share, over a real engine on a small workspace. */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import type { IndexProgress } from '../../src/core/model';
import { IndexSupervisor } from '../../src/node/index-supervisor';
import { captureLogger, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const files: Record<string, string> = {};
for (let i = 0; i < 30; i++) files[`src/m${i}.ts`] = `export function f${i}(x: number): number { return x + ${i}; }\n`;
const root = makeWorkspace(files);
const engine: Engine = testEngine(root);
after(async () => {
  await engine.dispose();
  removeWorkspace(root);
});

it('runs the engine, hands progress to the run and to every listener, and remembers when the run ended', async () => {
  const logger = captureLogger();
  let clock = 1_000;
  const runs = new IndexSupervisor(logger, () => clock++);
  assert.equal(runs.lastRunAt, Number.NEGATIVE_INFINITY);
  const heard: IndexProgress[] = [];
  const mine: IndexProgress[] = [];
  const sub = runs.onProgress((p) => heard.push(p));
  const during: number[] = [];
  const outcome = await runs.run(engine, { reason: 'startup', full: true, onProgress: (p) => { mine.push(p); during.push(runs.running); } });
  sub.dispose();
  assert.equal(outcome.parsed, 30);
  assert.ok(mine.length > 0 && mine.some((p) => p.phase === 'parsing'));
  assert.deepEqual(heard, mine);
  assert.ok(during.every((n) => n === 1), 'the run counts as under way while it reports');
  assert.equal(runs.running, 0);
  assert.equal(runs.progress, undefined);
  assert.ok(Number.isFinite(runs.lastRunAt) && runs.lastRunAt > 1_000);
  assert.ok(logger.lines.some((l) => /index \(startup\): 30 parsed, 0 unchanged, 0 removed in \d+ ms/.test(l)), logger.lines.join('\n'));
});

it('cancel() stops every run under way, which ends as cancelled without counting as a failure', async () => {
  const logger = captureLogger();
  const runs = new IndexSupervisor(logger);
  const run = runs.run(engine, { reason: 'request', full: true });
  assert.equal(runs.running, 1);
  assert.equal(runs.cancel(), 1);
  await assert.rejects(run, (e: unknown) => EngineError.is(e, 'cancelled'));
  assert.equal(runs.running, 0);
  assert.equal(runs.lastError, undefined);
  assert.ok(logger.lines.some((l) => /index \(request\): cancelled/.test(l)), logger.lines.join('\n'));
});

it('a run stopped by its own signal ends the same way; an already aborted signal never starts work', async () => {
  const runs = new IndexSupervisor(captureLogger());
  const c = new AbortController();
  c.abort();
  await assert.rejects(runs.run(engine, { reason: 'request', signal: c.signal }), (e: unknown) => EngineError.is(e, 'cancelled'));
  assert.equal(runs.running, 0);
});
