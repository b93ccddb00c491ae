/** `definitions` from the index on TypeScript, Python and Go fixtures: lookup forms, ranking, not_found. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import { removeWorkspace, testEngine } from '../helpers/workspace';

const engines: Engine[] = [];
const roots: string[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

/** A private copy of a navigation fixture, indexed (the index is written inside the copy). */
async function fixture(name: string): Promise<Engine> {
  const root = mkdtempSync(join(tmpdir(), `co-nav-${name}-`));
  cpSync(resolve('test/fixtures/navigation', name), root, { recursive: true });
  roots.push(root);
  const engine = testEngine(root);
  engines.push(engine);
  await engine.index();
  return engine;
}

async function notFound(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (e) {
    assert.ok(EngineError.is(e, 'not_found'), `expected not_found, got ${String(e)}`);
    return e;
  }
  throw new Error('expected not_found');
}

describe('definitions: TypeScript', () => {
  let ts: Engine;
  before(async () => { ts = await fixture('ts'); });

  it('answers a plain name with path, 1-based line and columns, kind, container, signature and source', async () => {
    const { results } = await ts.definitions('route');
    const top = results[0]!;
    assert.deepEqual(
      { path: top.path, line: top.line, column: top.column, endColumn: top.endColumn, kind: top.kind, source: top.source },
      { path: 'src/router.ts', line: 8, column: 17, endColumn: 22, kind: 'function', source: 'index' },
    );
    assert.equal(top.preview, 'function route(port: number): number');
    assert.ok(results.some((r) => r.path === 'src/other/labels.ts'), 'the other `route` is still listed');
    assert.equal(results.at(-1)!.name, 'Route', 'a different case comes after exact-case matches');
  });

  it('prefers source over tests and the implementation over a declaration file', async () => {
    const listen = (await ts.definitions('listen')).results;
    assert.equal(listen[0]!.qualifiedName, 'Server.listen');
    assert.equal(listen[0]!.container, 'Server');
    assert.equal(listen[1]!.path, 'test/server.test.ts');
    const login = (await ts.definitions('login')).results;
    assert.deepEqual(login.map((r) => r.path), ['src/auth/service.ts', 'types/legacy.d.ts']);
  });

  it('puts an overload group first at its first declaration', async () => {
    const { results } = await ts.definitions('createServer');
    assert.deepEqual(results.map((r) => r.line), [14, 15, 16]);
  });

  it('resolves Container.name and path-qualified names, dropping looser matches', async () => {
    assert.deepEqual((await ts.definitions('Server.listen')).results.map((r) => r.qualifiedName), ['Server.listen']);
    assert.deepEqual((await ts.definitions('auth.service.login')).results.map((r) => r.path), ['src/auth/service.ts']);
    assert.deepEqual((await ts.definitions('other.labels.route')).results.map((r) => r.path), ['src/other/labels.ts']);
  });

  it('rejects unknown names with suggestions and bad input with typed errors', async () => {
    const typo = await notFound(ts.definitions('creatServer'));
    assert.deepEqual((typo.detail?.suggestions as string[])[0], 'createServer');
    const wrongContainer = await notFound(ts.definitions('Router.listen'));
    assert.deepEqual(wrongContainer.detail?.suggestions, ['Server.listen', 'listen'], 'the qualified names it does have');
    await assert.rejects(ts.definitions('  '), (e) => EngineError.is(e, 'required'));
    await assert.rejects(ts.definitions('foo bar'), (e) => EngineError.is(e, 'invalid_input'));
    await assert.rejects(ts.definitions('route', { limit: 0 }), (e) => EngineError.is(e, 'invalid_input'));
  });
});

describe('definitions: Python and Go', () => {
  let py: Engine;
  let go: Engine;
  before(async () => { [py, go] = await Promise.all([fixture('py'), fixture('go')]); });

  it('finds Python functions, methods and module-qualified names', async () => {
    const login = (await py.definitions('login')).results;
    assert.equal(login[0]!.path, 'shop/auth.py', 'the definition three files import beats an unused namesake');
    assert.equal(login[0]!.line, 12);
    assert.deepEqual((await py.definitions('Session.close')).results.map((r) => [r.path, r.line, r.kind]), [['shop/auth.py', 8, 'method']]);
    assert.deepEqual((await py.definitions('shop.auth.login')).results.map((r) => r.path), ['shop/auth.py']);
    assert.deepEqual((await py.definitions('other.login')).results.map((r) => r.path), ['other.py']);
  });

  it('finds Go functions by package and methods by receiver type', async () => {
    assert.equal((await go.definitions('New')).results[0]!.path, 'server/server.go');
    assert.deepEqual((await go.definitions('tools.New')).results.map((r) => r.path), ['tools/gen.go']);
    const listen = (await go.definitions('Server.Listen')).results;
    assert.deepEqual(listen.map((r) => [r.path, r.line, r.kind, r.container]), [['server/server.go', 14, 'method', 'Server']]);
    assert.deepEqual((await go.definitions('storage.Open')).results.map((r) => r.path), ['internal/store/db.go'], 'package clause');
    const missing = await notFound(go.definitions('Lisen'));
    assert.ok((missing.detail?.suggestions as string[]).includes('Listen'));
  });
});
