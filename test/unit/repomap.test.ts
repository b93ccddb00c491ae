/**
 * The repo map on fixtures: golden renderings, the token budget as a hard limit, personalisation, scope, slices
 * and the cache (keyed on the index version, never on the request). UPDATE_GOLDEN=1 rewrites the golden files.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import { countTokens } from '../../src/core/tokens';
import { mentionsFromText } from '../../src/core/repomap/mentions';
import type { RepoMap } from '../../src/core/repomap/types';
import { captureLogger, indexPathOf, removeWorkspace, testEngine, writeFiles } from '../helpers/workspace';
import { assertGoldenText } from '../helpers/golden';

const engines: Engine[] = [];
const roots: string[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

async function workspace(files: { fixture?: string; extra?: Record<string, string> }): Promise<{ root: string; engine: Engine }> {
  const root = mkdtempSync(join(tmpdir(), 'co-map-'));
  if (files.fixture) cpSync(resolve('test/fixtures/navigation', files.fixture), root, { recursive: true });
  if (files.extra) writeFiles(root, files.extra);
  roots.push(root);
  const engine = testEngine(root);
  engines.push(engine);
  await engine.index();
  return { root, engine };
}

function golden(name: string, actual: string): void {
  assertGoldenText(resolve('test/golden/repomap', `${name}.txt`), actual);
}

/** A synthetic project big enough that budgets bind: modules calling each other's functions. */
function synthetic(files: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const calls = [1, 2, 3].map((k) => `  return helper${(i * 7 + k * 3) % files}(n + ${k});`).slice(0, 1 + (i % 3));
    out[`pkg/mod${i}.ts`] = [
      ...[1, 2, 3].map((k) => `import { helper${(i * 7 + k * 3) % files} } from './mod${(i * 7 + k * 3) % files}';`),
      `export function helper${i}(n: number): number {`,
      ...calls,
      '}',
      `export class Service${i} {`,
      `  run${i}(input: string): string { return String(helper${i}(input.length)); }`,
      '}',
    ].join('\n');
  }
  return out;
}

describe('mentions', () => {
  it('drops the engine-wide stopwords from the identifiers a question mentions', () => {
    // 'should' and 'using' were not in the map's own shorter list, so they personalised the map.
    assert.deepEqual(mentionsFromText('Where should routes be registered using addRoute in src/router.ts?').idents,
      ['routes', 'registered', 'addRoute', 'src', 'router']);
  });
});

describe('repo map', () => {
  let ts: Engine;
  let big: Engine;
  before(async () => {
    ts = (await workspace({ fixture: 'ts' })).engine;
    big = (await workspace({ extra: synthetic(80) })).engine;
  });

  it('renders golden maps: files most important first, signatures under their containers, ⋮ for what is left out', async () => {
    golden('ts-full', (await ts.repoMap()).text);
    golden('ts-120', (await ts.repoMap({ maxTokens: 120 })).text);
    golden('py-full', (await (await workspace({ fixture: 'py' })).engine.repoMap()).text);
    golden('go-full', (await (await workspace({ fixture: 'go' })).engine.repoMap()).text);
    golden('synthetic-200', (await big.repoMap({ maxTokens: 200 })).text);
  });

  it('never exceeds the budget, for many random budgets, and counts tokens exactly', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let previous = { budget: 0, tokens: 0 };
    const budgets = Array.from({ length: 40 }, () => 1 + Math.floor(random() * 3000)).sort((a, b) => a - b);
    for (const budget of [1, 5, 17, ...budgets]) {
      const map = await big.repoMap({ maxTokens: budget });
      assert.ok(map.tokens <= budget, `${map.tokens} tokens > budget ${budget}`);
      assert.equal(map.tokens, countTokens(map.text));
      assert.ok(budget < previous.budget || map.tokens >= previous.tokens * 0.8, `a bigger budget (${budget}) gave a much smaller map`);
      previous = { budget, tokens: map.tokens };
    }
    const roomy = await big.repoMap({ maxTokens: 1024 });
    assert.ok(roomy.tokens > 1024 * 0.8, `the map uses the budget it has (${roomy.tokens}/1024)`);
  });

  it('moves mentioned files and identifiers up', async () => {
    const plain = (await ts.repoMap()).files.map((f) => f.path);
    const byFile = (await ts.repoMap({ mentionedFiles: ['auth/service.ts'] })).files.map((f) => f.path);
    const byIdent = (await ts.repoMap({ mentionedIdents: ['MemoryStore'] })).files.map((f) => f.path);
    const byStem = (await ts.repoMap({ mentionedIdents: ['memory'] })).files.map((f) => f.path);
    assert.ok(plain.indexOf('src/auth/service.ts') > 0, 'not first on its own');
    assert.equal(byFile[0], 'src/auth/service.ts');
    assert.equal(byIdent[0], 'src/memory.ts', 'the file defining a mentioned identifier');
    assert.equal(byStem[0], 'src/memory.ts', 'a file named like a mentioned word');
    const bigPlain = await big.repoMap({ maxTokens: 150 });
    const bigFocused = await big.repoMap({ maxTokens: 150, mentionedFiles: ['pkg/mod77.ts'] });
    assert.ok(!bigPlain.files.some((f) => f.path === 'pkg/mod77.ts') || bigPlain.files[0]!.path !== 'pkg/mod77.ts');
    assert.equal(bigFocused.files[0]!.path, 'pkg/mod77.ts');
  });

  it('restricts to a scope and rejects scopes outside the workspace or without files', async () => {
    const scoped = await ts.repoMap({ scope: './src/auth/' });
    assert.equal(scoped.scope, 'src/auth');
    assert.deepEqual(scoped.files.map((f) => f.path), ['src/auth/service.ts']);
    await assert.rejects(ts.repoMap({ scope: '../elsewhere' }), (e) => EngineError.is(e, 'outside_workspace'));
    await assert.rejects(ts.repoMap({ scope: 'src/auht' }), (e) => EngineError.is(e, 'not_found') && (e.detail?.suggestions as string[])[0] === 'src/auth');
    await assert.rejects(ts.repoMap({ maxTokens: 0 }), (e) => EngineError.is(e, 'invalid_input'));
  });

  it('gives a slice around a set of files: them and their identifier neighbours', async () => {
    const slice = await ts.repoMapSlice(['src/app.ts'], { maxTokens: 2000 });
    const paths = slice.files.map((f) => f.path);
    assert.equal(paths[0], 'src/app.ts');
    for (const p of ['src/router.ts', 'src/server.ts']) assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    for (const p of ['src/memory.ts', 'src/auth/service.ts']) assert.ok(!paths.includes(p), `${p} is unrelated`);
    await assert.rejects(ts.repoMapSlice(['nope.ts']), (e) => EngineError.is(e, 'not_found'));
  });

  it('caches the graph on the index version, not on the request', async () => {
    const { root, engine } = await workspace({ fixture: 'ts' });
    const first = await engine.repoMap();
    assert.equal(first.stats.graphCached, false);
    const again = await engine.repoMap({ mentionedIdents: ['Router'], maxTokens: 300 });
    assert.equal(again.stats.graphCached, true, 'a different prompt reuses the graph');
    assert.equal(again.stats.indexVersion, first.stats.indexVersion);
    writeFiles(root, { 'src/extra.ts': 'export function extraThing(): number { return 1; }\n' });
    await engine.index();
    const after = await engine.repoMap();
    assert.equal(after.stats.graphCached, false, 'a new index version rebuilds it');
    assert.notEqual(after.stats.indexVersion, first.stats.indexVersion);
    assert.match(after.text, /extraThing/);
  });

  it('saves the graph beside the index: a new process on the same index draws the same map from it, never from an older index', async () => {
    const { root, engine } = await workspace({ fixture: 'ts', extra: synthetic(30) });
    const first = await engine.repoMap({ maxTokens: 400 });
    assert.equal(first.stats.graphCached, false);
    assert.ok(existsSync(`${indexPathOf(root)}.map`), 'the graph is saved beside the index');
    const fresh = () => {
      const e = testEngine(root);
      engines.push(e);
      return e;
    };
    const reader = fresh();
    for (const options of [{ maxTokens: 400 }, { maxTokens: 120, mentionedIdents: ['Router'] }, { maxTokens: 300, scope: 'pkg' }]) {
      const expected = await engine.repoMap(options);
      const saved = await reader.repoMap(options);
      assert.equal(saved.stats.graphCached, true, 'read back, not rebuilt from the index');
      assert.deepEqual({ ...saved, stats: { ...saved.stats, elapsedMs: 0, graphMs: 0 } }, { ...expected, stats: { ...expected.stats, elapsedMs: 0, graphMs: 0 } });
    }
    // One changed file, committed the way a watcher does: the next process must not draw the old graph.
    writeFiles(root, { 'pkg/mod0.ts': 'export function renamedHelperZero(n: number): number { return n; }\n' });
    await engine.noteChanges([{ path: 'pkg/mod0.ts' }]);
    await engine.syncNow();
    const later = fresh();
    const after = await later.repoMap({ maxTokens: 100_000 });
    assert.equal(after.stats.graphCached, false, 'a snapshot of an older index is not used');
    assert.match(after.text, /renamedHelperZero/);
    assert.doesNotMatch(after.text, /function helper0\(/);
    assert.equal((await fresh().repoMap({ maxTokens: 100_000 })).text, after.text, 'and the new graph is saved in its place');
  });

  it('patches the graph after a change, its own or the saved one, to the map a new graph gives: edit, add, edit under the same id, delete, rename', async () => {
    const { root, engine } = await workspace({ fixture: 'ts', extra: synthetic(30) });
    const sidecar = `${indexPathOf(root)}.map`;
    await engine.repoMap();
    const options = [{ maxTokens: 100_000 }, { maxTokens: 400 }, { maxTokens: 300, mentionedIdents: ['helper3'] }, { maxTokens: 200, mentionedFiles: ['pkg/mod5.ts'] }];
    const strip = (m: RepoMap) => ({ ...m, stats: { ...m.stats, elapsedMs: 0, graphMs: 0, graphCached: false } });
    const mapsOf = async (e: Engine) => {
      const out: RepoMap[] = [];
      for (const o of options) out.push(strip(await e.repoMap(o)));
      return out;
    };
    const fresh = (logger = captureLogger()) => {
      const e = testEngine(root, {}, logger);
      engines.push(e);
      return e;
    };
    const changes: [string, number, () => void][] = [
      // helper3 is no longer defined: its references from unchanged files drop out of the graph. Service5 and run5,
      // defined all along, are referenced for the first time (names the index had not seen).
      ['edit', 1, () => writeFiles(root, { 'pkg/mod3.ts': "export function helperThree(n: number): number { return helper4(n) + new Service5().run5('x').length; }\n" })],
      // Defined again by a new file: the unchanged files' references to it count again.
      ['add', 1, () => writeFiles(root, { 'pkg/again.ts': 'export function helper3(n: number): number { return helper9(n) + helper9(n); }\n' })],
      // The newest file written again: it gets its id back (the next after the last), so only its version tells.
      ['edit under the same id', 1, () => writeFiles(root, { 'pkg/again.ts': 'export function helper3(n: number): number { return n; }\nexport const againToo = 1;\n' })],
      ['delete', 0, () => rmSync(join(root, 'pkg/mod7.ts'))],
      // A new path: every file's place in path order moves.
      ['rename', 1, () => {
        mkdirSync(join(root, 'a'), { recursive: true });
        renameSync(join(root, 'pkg/mod9.ts'), join(root, 'a/mod9.ts'));
      }],
    ];
    for (const [what, read, change] of changes) {
      const saved = readFileSync(sidecar);
      change();
      await engine.index();
      const patchedHere = await mapsOf(engine);
      writeFileSync(sidecar, saved);
      const logger = captureLogger();
      const patchedSaved = await mapsOf(fresh(logger));
      assert.ok(logger.lines.some((l) => new RegExp(`graph of .* patched to .*, ${read} of \\d+ files read again`).test(l)), `${what}: the saved graph was patched\n${logger.lines.join('\n')}`);
      rmSync(sidecar);
      const rebuilt = await mapsOf(fresh());
      assert.deepEqual(patchedHere, rebuilt, `${what}: the graph this process patched`);
      assert.deepEqual(patchedSaved, rebuilt, `${what}: the saved graph, patched by a new process`);
    }
    const last = await engine.repoMap({ maxTokens: 100_000 });
    assert.match(last.text, /helperThree/);
    assert.ok(last.files.some((f) => f.path === 'a/mod9.ts') && !last.files.some((f) => f.path === 'pkg/mod7.ts'));
  });

  it('rebuilds the graph from the index, not patching it, when the saved one of an earlier version is cut short', async () => {
    const { root, engine } = await workspace({ fixture: 'ts', extra: synthetic(10) });
    await engine.repoMap();
    const sidecar = `${indexPathOf(root)}.map`;
    const saved = readFileSync(sidecar);
    writeFiles(root, { 'pkg/mod1.ts': 'export function helperOne(n: number): number { return n; }\n' });
    await engine.index();
    const expected = await engine.repoMap({ maxTokens: 100_000 });
    writeFileSync(sidecar, saved.subarray(0, Math.floor(saved.length * 0.9)));
    const logger = captureLogger();
    const e = testEngine(root, {}, logger);
    engines.push(e);
    const map = await e.repoMap({ maxTokens: 100_000 });
    assert.equal(map.text, expected.text);
    assert.ok(logger.lines.some((l) => /saved graph is unreadable.*cut short/.test(l)), logger.lines.join('\n'));
    assert.ok(!logger.lines.some((l) => /patched/.test(l)), logger.lines.join('\n'));
  });

  it('rebuilds the graph from the index when the saved one is unreadable', async () => {
    const { root, engine } = await workspace({ fixture: 'ts' });
    const expected = await engine.repoMap();
    writeFileSync(`${indexPathOf(root)}.map`, 'context-oracle map snapshot\nnot json');
    const logger = captureLogger();
    const e = testEngine(root, {}, logger);
    engines.push(e);
    const map = await e.repoMap();
    assert.equal(map.stats.graphCached, false);
    assert.equal(map.text, expected.text);
    assert.ok(logger.lines.some((l) => /saved graph is unreadable/.test(l)), logger.lines.join('\n'));
  });
});
