/**
 * Writing the index can fail part-way (disk full, a read-only folder): the error says what happened and where, as an
 * EngineError, the original cause is never masked by a failed rollback, and the index on disk keeps answering.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { createEngine, type Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import type { ImageDraft, IndexStorage } from '../../src/core/ports';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, testEngine, writeFiles } from '../helpers/workspace';

const roots: string[] = [];
const engines: Engine[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

function errno(code: string, syscall: string): Error {
  return Object.assign(new Error(`${code}: simulated failure, ${syscall}`), { code, errno: -28, syscall });
}

type Failure = { at: 'write' | 'fsync' | 'rename' | 'append'; code: string; afterBytes?: number };

/** The real file storage, with one write path made to fail as a full disk or a read-only folder would. */
function failingStorage(indexPath: string, fail: { now?: Failure }): IndexStorage {
  const real = createFileIndexStorage(indexPath);
  return {
    ...real,
    location: real.location,
    async createImage(): Promise<ImageDraft> {
      const draft = await real.createImage();
      let written = 0;
      const write = draft.write.bind(draft);
      const commit = draft.commit.bind(draft);
      return Object.assign(draft, {
        write(bytes: Uint8Array, position: number) {
          const f = fail.now;
          if (f?.at === 'write' && written + bytes.length > (f.afterBytes ?? 0)) throw errno(f.code, 'write');
          written += bytes.length;
          write(bytes, position);
        },
        async commit() {
          const f = fail.now;
          if (f?.at === 'fsync') throw errno(f.code, 'fsync');
          if (f?.at === 'rename') throw errno(f.code, 'rename');
          await commit();
        },
      });
    },
    async appendJournal(at, bytes) {
      if (fail.now?.at === 'append') throw errno(fail.now.code, 'write');
      await real.appendJournal(at, bytes);
    },
  };
}

function engineOver(root: string, storage: IndexStorage, journalMaxBytes?: number): Engine {
  const assets = createNodeAssetLocator(ASSET_ROOT);
  const e = createEngine({ root, fs: nodeFileSystem, storage, logger: captureLogger(), clock: { now: () => Date.now() }, assets,
    parser: createInProcessParserHost(assets) }, journalMaxBytes === undefined ? {} : { journalMaxBytes });
  engines.push(e);
  return e;
}

async function found(e: Engine, name: string): Promise<boolean> {
  try {
    return (await e.definitions(name)).results.some((d) => d.name === name);
  } catch (err) {
    if (EngineError.is(err, 'not_found')) return false;
    throw err;
  }
}

function workspace(): { root: string; indexPath: string } {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`src/m${i}.ts`] = `export function old${i}(x: number): number { return x + ${i}; }\n`.repeat(30);
  const root = makeWorkspace(files);
  roots.push(root);
  return { root, indexPath: join(root, '.context-oracle', 'index.db') };
}

describe('index write failures', () => {
  const cases: Array<{ name: string; failure: Failure; full: boolean; code: string; says: RegExp }> = [
    { name: 'disk full while a full run builds its image', failure: { at: 'write', code: 'ENOSPC', afterBytes: 300 * 1024 }, full: true, code: 'no_space', says: /no space left on device while writing .*index\.db/ },
    { name: 'disk full at the first page of a full run', failure: { at: 'write', code: 'ENOSPC' }, full: true, code: 'no_space', says: /no space left on device while writing .*index\.db/ },
    { name: 'disk full at fsync of a folded image', failure: { at: 'fsync', code: 'ENOSPC' }, full: false, code: 'no_space', says: /no space left on device while writing .*index\.db/ },
    { name: 'read-only file system at rename', failure: { at: 'rename', code: 'EROFS' }, full: true, code: 'permission_denied', says: /permission denied writing .*index\.db.*read-only/ },
    { name: 'permission denied appending to the journal', failure: { at: 'append', code: 'EACCES' }, full: false, code: 'permission_denied', says: /permission denied writing .*index\.db/ },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.code}, naming the path, and the old index still answers`, async () => {
      const { root, indexPath } = workspace();
      const fail: { now?: Failure } = {};
      // A journal limit of 1 byte folds every commit into a new image (the fsync case); others keep the default.
      const e = engineOver(root, failingStorage(indexPath, fail), c.failure.at === 'fsync' ? 1 : undefined);
      await e.index();
      writeFiles(root, { 'src/m1.ts': 'export function added1() {}\n', 'src/new.ts': 'export function brandNew() {}\n' });
      fail.now = c.failure;
      await assert.rejects(e.index({ full: c.full }), (err: unknown) => {
        assert.ok(EngineError.is(err), `an EngineError, not ${err instanceof Error ? err.stack : String(err)}`);
        assert.equal(err.code, c.code);
        assert.match(err.message, c.says);
        assert.doesNotMatch(err.message, /rollback/);
        return true;
      });
      fail.now = undefined;
      assert.equal(await found(e, 'old1'), true, 'the engine that failed answers from the old index');
      assert.equal(await found(e, 'brandNew'), false);
      const fresh = testEngine(root);
      engines.push(fresh);
      assert.equal(await found(fresh, 'old1'), true, 'a new process reads the old index');
      assert.equal(await found(fresh, 'old5'), true);
      // Once the disk has room again, the next run goes through.
      await e.index();
      assert.equal(await found(e, 'brandNew'), true);
    });
  }
});

describe('the Node index storage', () => {
  it('names the file it could not write and the cause', async () => {
    const { indexPath } = workspace();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    // As root, permissions do not stop writes: things in the way do.
    mkdirSync(`${indexPath}.journal`, { recursive: true });
    const storage = createFileIndexStorage(indexPath);
    await assert.rejects(storage.appendJournal(0, new Uint8Array([1, 2, 3])), (err: unknown) => {
      assert.ok(EngineError.is(err, 'write_failed'), String(err));
      assert.deepEqual(err.detail, { path: `${indexPath}.journal`, cause: 'EISDIR' });
      return true;
    });
    const blocked = join(indexPath, '..', '..', 'blocked');
    writeFileSync(blocked, 'a file where the index folder should be\n');
    await assert.rejects(createFileIndexStorage(join(blocked, 'index.db')).createImage(), (err: unknown) => {
      assert.ok(EngineError.is(err, 'write_failed'), String(err));
      assert.match(err.message, /cannot write .*blocked: a file stands where a folder is needed \(EEXIST\)/);
      return true;
    });
  });
});
