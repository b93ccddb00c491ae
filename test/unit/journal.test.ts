/**
 * The journal: small commits are appended beside the index image instead of rewriting it; every reader (this
 * process, another engine on the same files, a later process) sees image + journal; torn and stale journals are
 * ignored without losing what the image holds; a journal past its limit is folded into a new image.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../src/core/engine';
import { encodeRecord, journalHeader, readJournal } from '../../src/core/store/journal';
import { makeWorkspace, removeWorkspace, testEngine, writeFiles, indexPathOf } from '../helpers/workspace';

const roots: string[] = [];
const engines: Engine[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

function setup(files = 30): { root: string; image: string; journal: string } {
  const ws: Record<string, string> = {};
  for (let i = 0; i < files; i++) ws[`src/m${i}.ts`] = `export function base${i}(x: number): number { return x + ${i}; }\n`;
  const root = makeWorkspace(ws);
  roots.push(root);
  const image = indexPathOf(root);
  return { root, image, journal: `${image}.journal` };
}

function engine(root: string, journalMaxBytes?: number): Engine {
  const e = testEngine(root, journalMaxBytes === undefined ? {} : { journalMaxBytes });
  engines.push(e);
  return e;
}

async function symbolFound(e: Engine, name: string): Promise<boolean> {
  return (await e.search(name, { limit: 3 })).some((h) => h.symbol === name);
}

describe('index journal', () => {
  it('frames records that read back whole, and stops at a damaged or torn one', () => {
    const header = journalHeader('abc');
    const r1 = encodeRecord([{ op: 'remove', path: 'a.ts' }]);
    const r2 = encodeRecord([{ op: 'meta', values: { k: 'v' } }]);
    const all = new Uint8Array([...header, ...r1, ...r2]);
    const whole = readJournal(all, 0);
    assert.equal(whole.generation, 'abc');
    assert.deepEqual(whole.records.map((r) => r.changes), [[{ op: 'remove', path: 'a.ts' }], [{ op: 'meta', values: { k: 'v' } }]]);
    assert.equal(whole.end, all.length);
    const tail = readJournal(all.subarray(header.length + r1.length), header.length + r1.length);
    assert.equal(tail.records.length, 1, 'reading from an offset needs no header');
    const damaged = all.slice();
    damaged[header.length + r1.length + 20] ^= 0xff;
    const cut = readJournal(damaged, 0);
    assert.equal(cut.records.length, 1, 'a damaged record ends the journal');
    assert.equal(cut.end, header.length + r1.length);
    const torn = readJournal(all.subarray(0, all.length - 3), 0);
    assert.equal(torn.records.length, 1);
    assert.equal(torn.tornBytes, r2.length - 3);
    assert.equal(readJournal(new TextEncoder().encode('garbage\n'), 0).generation, undefined, 'no header, no generation');
  });

  it('appends a small commit without rewriting the image, and every reader sees it', async () => {
    const { root, image, journal } = setup();
    const writer = engine(root);
    await writer.index();
    const imageBytes = readFileSync(image);
    const imageStat = statSync(image);
    const reader = engine(root); // loaded before the commit: must catch up
    assert.equal(await symbolFound(reader, 'base3'), true);

    writeFiles(root, { 'src/m3.ts': 'export function renamed3(x: number): number { return x * 3; }\n' });
    await writer.noteChanges([{ path: 'src/m3.ts' }]);
    await writer.syncNow();

    assert.deepEqual(readFileSync(image), imageBytes, 'the image is untouched');
    assert.equal(statSync(image).mtimeMs, imageStat.mtimeMs);
    assert.ok(statSync(journal).size > journalHeader('x').length, 'the commit went to the journal');
    for (const e of [writer, reader, engine(root)]) {
      assert.equal(await symbolFound(e, 'renamed3'), true);
      assert.equal(await symbolFound(e, 'base3'), false, 'the old version is gone');
    }
    // A removal and a second commit, seen by a process that opens image + journal from scratch.
    writeFiles(root, { 'src/m4.ts': 'export function renamed4() {}\n' });
    rmSync(join(root, 'src/m5.ts'));
    await writer.noteChanges([{ path: 'src/m4.ts' }, { path: 'src/m5.ts', kind: 'deleted' }]);
    await writer.syncNow();
    const fresh = engine(root);
    assert.equal(await symbolFound(fresh, 'renamed4'), true);
    assert.equal(await symbolFound(fresh, 'base5'), false);
    assert.equal((await fresh.status()).files, 29);
    assert.equal(await symbolFound(reader, 'base5'), false, 'the earlier reader catches up again');
  });

  it('ignores a torn tail, and the next commit cuts it off', async () => {
    const { root, journal } = setup(5);
    const writer = engine(root);
    await writer.index();
    writeFiles(root, { 'src/m1.ts': 'export function first() {}\n' });
    await writer.noteChanges([{ path: 'src/m1.ts' }]);
    await writer.syncNow();
    const good = statSync(journal).size;
    // A writer killed mid-append: half a record.
    appendFileSync(journal, encodeRecord([{ op: 'remove', path: 'src/m2.ts' }]).subarray(0, 20));
    const reader = engine(root);
    assert.equal(await symbolFound(reader, 'first'), true);
    assert.equal(await symbolFound(reader, 'base2'), true, 'the torn record is not applied');
    writeFiles(root, { 'src/m2.ts': 'export function second() {}\n' });
    await writer.noteChanges([{ path: 'src/m2.ts' }]);
    await writer.syncNow();
    const bytes = readFileSync(journal);
    assert.equal(readJournal(bytes, 0).tornBytes, 0, 'the torn bytes were cut before appending');
    assert.ok(bytes.length > good);
    const fresh = engine(root);
    assert.equal(await symbolFound(fresh, 'first'), true);
    assert.equal(await symbolFound(fresh, 'second'), true);
  });

  it('ignores a journal left from an older image', async () => {
    const { root, journal } = setup(5);
    const writer = engine(root);
    await writer.index();
    writeFiles(root, { 'src/m1.ts': 'export function fromOldJournal() {}\n' });
    await writer.noteChanges([{ path: 'src/m1.ts' }]);
    await writer.syncNow();
    const old = readFileSync(journal);
    // A full re-index writes a new image; a writer killed before it reset the journal leaves the old one behind.
    writeFiles(root, { 'src/m1.ts': 'export function fromNewImage() {}\n' });
    await writer.index({ full: true });
    writeFileSync(journal, old);
    const fresh = engine(root);
    assert.equal(await symbolFound(fresh, 'fromNewImage'), true);
    assert.equal(await symbolFound(fresh, 'fromOldJournal'), false, 'records of another generation are not replayed');
  });

  it('folds the journal into a new image once it passes its limit', async () => {
    const { root, image, journal } = setup(5);
    const writer = engine(root, 2_000);
    await writer.index();
    const stamps = new Set<number>([statSync(image).mtimeMs]);
    let compactions = 0;
    for (let i = 0; i < 8; i++) {
      writeFiles(root, { 'src/m1.ts': `export function step${i}() { return '${'x'.repeat(200)}'; }\n` });
      await writer.noteChanges([{ path: 'src/m1.ts' }]);
      await writer.syncNow();
      const m = statSync(image).mtimeMs;
      if (!stamps.has(m)) compactions++;
      stamps.add(m);
      assert.ok(statSync(journal).size <= 2_000, `journal ${statSync(journal).size} bytes stays under its limit`);
    }
    assert.ok(compactions >= 1 && compactions < 8, `some commits were appended, some compacted (${compactions})`);
    const fresh = engine(root);
    assert.equal(await symbolFound(fresh, 'step7'), true);
    assert.equal(await symbolFound(fresh, 'step6'), false);
  });
});

describe('queries during a commit of this process', () => {
  it('answer from the database the run is writing, and it stays open afterwards', async () => {
    const { root } = setup(5);
    const { createEngine } = await import('../../src/core/engine');
    const { createFileIndexStorage } = await import('../../src/node/index-storage');
    const { createNodeAssetLocator } = await import('../../src/node/assets');
    const { nodeFileSystem } = await import('../../src/node/file-system');
    const { createInProcessParserHost } = await import('../../src/core/parse/in-process-parser-host');
    const { ASSET_ROOT, captureLogger } = await import('../helpers/workspace');
    const storage = createFileIndexStorage(join(root, '.context-oracle', 'index.db'));
    let e: Engine | undefined;
    let midWrite: boolean | undefined;
    // A query lands right after the new image is in place and before the run hands its database over.
    const racing = {
      ...storage,
      async createImage() {
        const draft = await storage.createImage();
        const commit = draft.commit.bind(draft);
        draft.commit = async () => { await commit(); if (e) midWrite = await symbolFound(e, 'base1'); };
        return draft;
      },
    };
    const assets = createNodeAssetLocator(ASSET_ROOT);
    e = createEngine({ root, fs: nodeFileSystem, storage: racing, logger: captureLogger(), clock: { now: () => Date.now() }, assets, parser: createInProcessParserHost(assets) }, { journalMaxBytes: 1 });
    engines.push(e);
    await e.index();
    writeFiles(root, { 'src/m2.ts': 'export function during() {}\n' });
    await e.index(); // incremental, but folded into a new image (journal limit 1 byte): the racing write runs
    assert.equal(midWrite, true, 'the query mid-write was answered');
    assert.equal(await symbolFound(e, 'during'), true, 'and the engine still answers after the run');
    assert.equal(await symbolFound(e, 'base2'), false);
  });
});
