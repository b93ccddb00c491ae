/**
 * One request, one freshness check and one read of the index: a question reaches smart context, definitions,
 * references and the repo map, and every one of them reads the database its request read (store/index-request.ts).
 * Counted at the storage port: every read of the index asks storage for the image's stamp first.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { createEngine } from '../../src/core/engine';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { DEFAULT_CONFIG } from '../../src/core/config';
import type { EngineDeps, IndexStorage } from '../../src/core/ports';
import { createIndexLifecycle } from '../../src/core/store/index-lifecycle';
import type { IndexDatabase } from '../../src/core/store/database';
import { createIndexRequests } from '../../src/core/store/index-request';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

/** Storage that counts how often the index is looked up for a read (stamp() opens every read). */
function countingStorage(storage: IndexStorage): IndexStorage & { reads: number } {
  const counted = Object.assign(Object.create(storage) as IndexStorage, { reads: 0 });
  counted.stamp = () => { counted.reads++; return storage.stamp(); };
  return counted;
}

const WORKSPACE = {
  'src/greeter.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/app.ts': "import { greet } from './greeter';\n\nexport function main(): void {\n  console.log(greet('world'));\n}\n",
  'src/cli.ts': "import { greet } from './greeter';\n\nexport function run(args: string[]): string {\n  return greet(args[0] ?? 'you');\n}\n",
};

describe('engine requests', () => {
  it('reads the index once for a whole question (context, definitions, references, index state)', async () => {
    const root = makeWorkspace(WORKSPACE);
    roots.push(root);
    const assets = createNodeAssetLocator(ASSET_ROOT);
    const storage = countingStorage(createFileIndexStorage(join(root, '.context-oracle', 'index.db')));
    const engine = createEngine({ root, fs: nodeFileSystem, storage, logger: captureLogger(), clock: { now: () => Date.now() }, assets, parser: createInProcessParserHost(assets) });
    try {
      await engine.index();
      storage.reads = 0;
      const result = await engine.askAll('Where is greet called?', { sources: ['code'], explain: true, log: false, model: null });
      assert.ok(result.citations.some((c) => c.path === 'src/app.ts' || c.path === 'src/cli.ts'), 'the question was answered from code');
      assert.ok(result.explain?.paths.some((p) => p.method === 'references'), 'references ran');
      assert.ok(result.explain?.paths.some((p) => p.method === 'context'), 'smart context ran');
      assert.equal(storage.reads, 1, 'one read of the index for the question');
      storage.reads = 0;
      await engine.references('greet');
      assert.equal(storage.reads, 1, 'one read for a references request (definitions resolved on the same database)');
      storage.reads = 0;
      const status = await engine.status();
      assert.ok(status.exists && status.freshness);
      assert.equal(storage.reads, 1, 'status reads the index once (its freshness stamp comes from the same database)');
    } finally {
      await engine.dispose();
    }
  });

  it('checks freshness once per request, before its one read, however many capabilities ask', async () => {
    const calls: string[] = [];
    const db = {} as IndexDatabase;
    const requests = createIndexRequests(async (text) => { calls.push(`fresh:${text}`); }, {
      hold: async () => { calls.push('read'); return db; },
      letGo: (d) => { calls.push(d === db ? 'let go' : 'let go of another'); },
    });
    const request = requests.open('where is greet called?');
    assert.deepEqual(calls, [], 'nothing runs until a capability asks');
    const got = await Promise.all([request.db(), request.fresh(), request.db(), request.db()]);
    assert.ok(got.filter(Boolean).every((d) => d === db));
    assert.deepEqual(calls, ['fresh:where is greet called?', 'read']);
    request.close();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(calls.slice(2), ['let go']);
    await requests.within(undefined, (r) => r.db());
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(calls.slice(3), ['read', 'let go'], 'a request without text (a repo map) has nothing to commit just in time');
  });

  it('keeps a request\'s database open when another process replaced the index and a later read reloaded it', async () => {
    const root = makeWorkspace(WORKSPACE);
    roots.push(root);
    const assets = createNodeAssetLocator(ASSET_ROOT);
    const indexPath = join(root, '.context-oracle', 'index.db');
    const deps = (): EngineDeps => ({ root, fs: nodeFileSystem, storage: createFileIndexStorage(indexPath), logger: captureLogger(), clock: { now: () => Date.now() }, assets, parser: createInProcessParserHost(assets) });
    const other = createEngine(deps());
    await other.index();
    const lifecycle = createIndexLifecycle(deps(), DEFAULT_CONFIG);
    try {
      const held = await lifecycle.hold();
      await other.index({ full: true }); // a new image, as another process would write it
      const current = await lifecycle.readable();
      assert.notEqual(current, held, 'the later read loaded the new image');
      assert.equal(Number(held.get('SELECT count(*) AS n FROM files')?.n), 3, 'the request still reads its own database');
      lifecycle.letGo(held);
      assert.throws(() => held.get('SELECT count(*) AS n FROM files'), 'closed once the request let go');
      assert.equal(Number(current.get('SELECT count(*) AS n FROM files')?.n), 3);
    } finally {
      await lifecycle.close();
      await other.dispose();
    }
  });
});
