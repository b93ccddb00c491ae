/**
 * The NavigationProvider port: when the host gives one (the editor's language servers), answers come from it and
 * say `source: "lsp"`; when it fails or knows nothing, the index answers. The provider here is an in-memory
 * implementation of the port over a fixed symbol table, the way the extension's would be over VS Code commands.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import type { NavigationProvider, NavLocation, NavSymbol } from '../../src/core/ports';
import { createNodeEngine } from '../../src/node/node-engine';
import { ASSET_ROOT, captureLogger, removeWorkspace } from '../helpers/workspace';

/** Answers from tables keyed by `path:line:column` of a symbol's name, recording every call. */
class InMemoryNavigation implements NavigationProvider {
  readonly calls: string[] = [];
  failing = false;
  constructor(
    private readonly symbols: NavSymbol[],
    private readonly refs: Record<string, NavLocation[]> = {},
    private readonly impls: Record<string, NavLocation[]> = {},
  ) {}

  private answer<T>(what: string, value: T): Promise<T> {
    this.calls.push(what);
    return this.failing ? Promise.reject(new Error('language server crashed')) : Promise.resolve(value);
  }

  async workspaceSymbols(query: string): Promise<NavSymbol[]> {
    // Like real providers, match fuzzily: the engine must filter.
    return this.answer(`symbols ${query}`, this.symbols.filter((s) => s.name.toLowerCase().includes(query.toLowerCase())));
  }
  async definitions(at: NavLocation): Promise<NavLocation[]> {
    return this.answer(`definitions ${key(at)}`, [at]);
  }
  async references(at: NavLocation): Promise<NavLocation[]> {
    return this.answer(`references ${key(at)}`, this.refs[key(at)] ?? []);
  }
  async implementations(at: NavLocation): Promise<NavLocation[]> {
    return this.answer(`implementations ${key(at)}`, this.impls[key(at)] ?? []);
  }
}

const key = (l: NavLocation): string => `${l.path}:${l.line}:${l.column}`;
const loc = (path: string, line: number, column: number, length: number): NavLocation => ({ path, line, column, endColumn: column + length });

const ROUTE = loc('src/router.ts', 8, 17, 5);
const provider = new InMemoryNavigation(
  [
    { name: 'route', kind: 'function', location: ROUTE },
    { name: 'routes', kind: 'property', container: 'Router', location: loc('src/router.ts', 13, 3, 6) },
    { name: 'route', kind: 'function', location: { path: '../node_modules/x/index.d.ts', line: 1, column: 1 } },
    { name: 'Store', kind: 'interface', location: loc('src/memory.ts', 3, 18, 5) },
  ],
  {
    [key(ROUTE)]: [ROUTE, loc('src/app.ts', 4, 41, 5), loc('src/server.ts', 8, 12, 5), loc('src/router.ts', 17, 5, 5)],
  },
  { 'src/memory.ts:3:18': [loc('src/memory.ts', 7, 14, 11)] },
);

const roots: string[] = [];
const engines: Engine[] = [];
function engineOn(root: string, navigation?: NavigationProvider): Engine {
  const engine = createNodeEngine({ root, logger: captureLogger(), assetRoot: ASSET_ROOT, workers: false, ...(navigation ? { navigation } : {}) });
  engines.push(engine);
  return engine;
}
function copyFixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'co-nav-lsp-'));
  cpSync(resolve('test/fixtures/navigation/ts'), root, { recursive: true });
  roots.push(root);
  return root;
}
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

describe('navigation through the NavigationProvider port', () => {
  let root: string;
  let engine: Engine;
  before(async () => {
    root = copyFixture();
    engine = engineOn(root, provider);
    await engine.index();
  });

  it('answers definitions from the language server, enriched by the index, workspace files only', async () => {
    provider.failing = false;
    const { results } = await engine.definitions('route');
    assert.deepEqual(results.map((r) => [r.path, r.line, r.column, r.source]), [['src/router.ts', 8, 17, 'lsp']], 'routes and the library file are dropped');
    assert.equal(results[0]!.kind, 'function');
    assert.equal(results[0]!.signature, 'function route(port: number): number', 'signature from the index');
  });

  it('answers references from the language server without the declaration, ranked by import proximity', async () => {
    provider.failing = false;
    const r = await engine.references('route');
    assert.equal(r.source, 'lsp');
    assert.deepEqual(r.results.map((h) => `${key(h)} ${h.proximity} ${h.kind}`), [
      'src/router.ts:17:5 same-file call',
      'src/server.ts:8:12 imports call',
      'src/app.ts:4:41 re-export call',
    ]);
    assert.equal(r.results[1]!.preview, 'return route(this.port);');
  });

  it('answers implementations from the language server and from the index', async () => {
    provider.failing = false;
    const lsp = await engine.implementations('Store');
    assert.equal(lsp.source, 'lsp');
    assert.deepEqual(lsp.results.map((h) => [h.qualifiedName, h.line]), [['MemoryStore', 7]]);
    const plain = engineOn(root);
    const index = await plain.implementations('Store');
    assert.equal(index.source, 'index');
    assert.deepEqual(index.results.map((h) => [h.qualifiedName, h.path, h.line]), [['MemoryStore', 'src/memory.ts', 7]]);
  });

  it('falls back to the index when the language server fails or does not know the symbol', async () => {
    provider.failing = true;
    const down = await engine.definitions('route');
    assert.equal(down.results[0]!.source, 'index');
    assert.equal(down.results[0]!.path, 'src/router.ts');
    const refs = await engine.references('route');
    assert.equal(refs.source, 'index');
    assert.ok(refs.results.some((h) => h.kind === 'import'), 'the index adds import statements');
    provider.failing = false;
    const unknown = await engine.definitions('createServer');
    assert.equal(unknown.results[0]!.source, 'index', 'the provider had no createServer');
    assert.ok(provider.calls.includes('symbols createServer'));
  });

  it('answers from the language server before any index exists; without either, says not_initialized', async () => {
    provider.failing = false;
    const fresh = copyFixture();
    const withLsp = await engineOn(fresh, provider).definitions('route');
    assert.equal(withLsp.results[0]!.source, 'lsp');
    assert.equal(withLsp.results[0]!.kind, 'function', 'kind from the provider when there is no index');
    await assert.rejects(engineOn(fresh).definitions('route'), (e) => EngineError.is(e, 'not_initialized'));
  });
});
