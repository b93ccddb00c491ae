/** A truncated, corrupt or foreign index is detected at open, moved aside, rebuilt and reported once. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../../src/core/errors';
import { SCHEMA_VERSION } from '../../src/core/store/schema';
import { makeWorkspace, removeWorkspace, testEngine, indexPathOf, cacheDirOf } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

async function indexedWorkspace(): Promise<string> {
  const root = makeWorkspace({ 'lib.rs': 'pub fn parse_args() {}\npub struct Config;\n' });
  roots.push(root);
  const engine = testEngine(root);
  await engine.index();
  await engine.dispose();
  return root;
}

const dbPath = (root: string) => indexPathOf(root);

describe('index recovery', () => {
  for (const [label, damage] of [
    ['truncated', (p: string) => truncateSync(p, 1000)],
    ['garbage', (p: string) => writeFileSync(p, Buffer.alloc(4096, 7))],
    ['foreign sqlite', (p: string) => writeFileSync(p, readFileSync(p).subarray(0, 100))],
  ] as const) {
    it(`queries on a ${label} index fail with index_corrupt, and index rebuilds it once`, async () => {
      const root = await indexedWorkspace();
      damage(dbPath(root));
      const engine = testEngine(root);
      await assert.rejects(engine.search('parse'), (e: unknown) => EngineError.is(e, 'index_corrupt'));
      assert.equal(await engine.indexState(), 'unusable');
      const outcome = await engine.index();
      assert.equal(await engine.indexState(), 'ready');
      assert.ok(outcome.recovered, 'the rebuild reports the recovery');
      assert.ok(outcome.recovered.movedTo && existsSync(outcome.recovered.movedTo), 'the bad file is kept aside');
      assert.equal((await engine.search('parse args'))[0]?.symbol, 'parse_args');
      const again = await engine.index();
      assert.equal(again.recovered, undefined, 'reported once');
      await engine.dispose();
    });
  }

  it('rebuilds an index written by another schema version', async () => {
    const root = await indexedWorkspace();
    const engine = testEngine(root);
    // Rewrite the meta row as another engine would have left it, with tables of its own: this schema's symbol table
    // missing (schema 5 had none by this name) must not read as damage.
    const initSqlJs = (await import('sql.js')).default;
    const SQL = await initSqlJs({ wasmBinary: readFileSync(join('dist', 'sql-wasm.wasm')).buffer as ArrayBuffer });
    const db = new SQL.Database(readFileSync(dbPath(root)));
    db.run("UPDATE meta SET value = '6' WHERE key = 'schema_version'");
    // Schema 6 kept its full text in FTS4 (chunks_fts) and had no postings.
    db.run('DROP VIEW chunks; DROP VIEW refs; DROP VIEW symbols; DROP TABLE symbol_rows; DROP TABLE postings; DROP TABLE postings_segs;');
    db.run('CREATE VIRTUAL TABLE chunks_fts USING fts4(name, path, body, content="", tokenize=simple);');
    writeFileSync(dbPath(root), db.export());
    db.close();
    await assert.rejects(engine.status(), (e: unknown) => EngineError.is(e, 'index_corrupt'));
    const outcome = await engine.index();
    assert.match(outcome.recovered?.reason ?? '', /schema_version/);
    assert.equal((await engine.status()).schemaVersion, String(SCHEMA_VERSION));
    assert.equal(outcome.recovered?.movedTo, undefined, 'an outdated but healthy index is rebuilt over, not kept aside');
    assert.ok(!readdirSync(cacheDirOf(root)).some((f) => f.includes('.corrupt-')));
    await engine.dispose();
  });

  it('reports not_initialized before the first index', async () => {
    const root = makeWorkspace({ 'a.py': 'x = 1\n' });
    roots.push(root);
    const engine = testEngine(root);
    await assert.rejects(engine.search('x'), (e: unknown) => EngineError.is(e, 'not_initialized'));
    assert.equal((await engine.status()).exists, false);
    assert.equal(await engine.indexState(), 'missing');
    await engine.dispose();
  });
});
