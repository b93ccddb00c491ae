/**
 * The index database works in place on its image file: pages are read from disk as needed, changes stay in memory
 * (copy-on-write) and never touch the image, whole images are streamed out page by page or packed, and a database
 * being built writes straight into its draft file.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ImageFile } from '../../src/core/ports';
import { IndexDatabase } from '../../src/core/store/database';
import { memoryImage, PagedFile } from '../../src/core/store/paged-file';
import { createNodeAssetLocator } from '../../src/node/assets';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { termPostings } from '../../src/core/store/postings';
import { packSegments } from '../../src/core/store/postings-writer';
import { ASSET_ROOT, makeWorkspace, removeWorkspace } from '../helpers/workspace';

const assets = createNodeAssetLocator(ASSET_ROOT);
const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function storageIn(readInPlace = true): { storage: ReturnType<typeof createFileIndexStorage>; path: string; dir: string } {
  const dir = makeWorkspace({});
  roots.push(dir);
  const path = join(dir, '.context-oracle', 'index.db');
  return { storage: createFileIndexStorage(path, { readInPlace }), path, dir: join(dir, '.context-oracle') };
}

const sha = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

/** Counts the bytes read through an image. */
function counting(image: ImageFile): ImageFile & { bytesRead: number } {
  const out = {
    bytesRead: 0,
    size: image.size,
    read(into: Uint8Array, position: number) {
      const n = image.read(into, position);
      out.bytesRead += n;
      return n;
    },
    close: () => image.close(),
  };
  return out;
}

/** A database with `n` files' worth of rows and full-text entries, built in a draft and committed. */
async function persistedIndex(storage: ReturnType<typeof createFileIndexStorage>, n: number): Promise<void> {
  const db = await IndexDatabase.create(assets, { generation: 'g1' }, await storage.createImage());
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      db.run("INSERT INTO files(id, path, language, size, mtime, hash, lines, indexed_at, text_id) VALUES (?, ?, 'typescript', 10, 0, ?, 1, 0, 0)", [i, `src/f${i}.ts`, `h${i}`]);
      db.run('INSERT INTO chunk_spans(file_id, line_start, line_end) VALUES (?, 1, 1)', [i]);
      db.postings.add(db, i, `name${i}`, `src f${i}`, `body word${i} ${'filler '.repeat(40)}`);
    }
  });
  const draft = await storage.createImage();
  db.writeImage(draft);
  await draft.commit();
  draft.close();
  db.close();
}

describe('paged database file', () => {
  it('overlays writes on a base without touching it, copy on write, zeros past the end', () => {
    const base = new Uint8Array(200_000).map((_, i) => i % 251);
    const file = new PagedFile(memoryImage(base));
    const before = sha(base);
    file.write(new Uint8Array([1, 2, 3]), 70_000);
    file.write(new Uint8Array(10).fill(9), 199_995); // grows the file by 5 bytes
    assert.equal(sha(base), before, 'the base is never written');
    assert.equal(file.size, 200_005);
    const got = new Uint8Array(8);
    file.read(got, 69_998);
    assert.deepEqual([...got], [base[69_998], base[69_999], 1, 2, 3, base[70_003], base[70_004], base[70_005]]);
    const tail = new Uint8Array(20);
    assert.equal(file.read(tail, 199_990), 15);
    assert.deepEqual([...tail], [...base.subarray(199_990, 199_995), ...new Array(10).fill(9), ...new Array(5).fill(0)]);
    assert.equal(file.overlayBytes(), 2 * 65536, 'only the two chunks written are held');
  });

  it('reads in file order through fewer, larger reads of the base, with the same bytes, overlay and end', () => {
    const base = new Uint8Array(300_000).map((_, i) => (i * 7) % 253);
    let calls = 0;
    const counted: ImageFile = { ...memoryImage(base), read(into, position) { calls++; return memoryImage(base).read(into, position); } };
    const file = new PagedFile(counted);
    file.write(new Uint8Array([5, 5, 5]), 140_000);
    const model = Uint8Array.from(base);
    model.set([5, 5, 5], 140_000);
    // A pass in 4 KiB pages to the end and past it, then the same pages again out of order.
    const page = new Uint8Array(4096);
    for (let at = 0; at < 304_000; at += 4096) {
      file.read(page, at);
      const want = new Uint8Array(4096);
      want.set(model.subarray(at, at + 4096));
      assert.deepEqual(page, want, `page at ${at}`);
    }
    assert.ok(calls < 20, `${calls} reads of the base for 75 pages`);
    for (const at of [204_800, 4096, 139_264, 299_008, 65_536 - 100]) {
      file.read(page, at);
      const want = new Uint8Array(4096);
      want.set(model.subarray(at, at + 4096));
      assert.deepEqual(page, want, `page at ${at}, again`);
    }
  });

  it('opens an image in place: a query reads a fraction of it, and changes never reach the file', async () => {
    const { storage, path } = storageIn();
    await persistedIndex(storage, 3000);
    const onDisk = sha(readFileSync(path));
    const image = counting((await storage.openImage())!);
    const db = await IndexDatabase.open(assets, image);
    assert.equal(db.get("SELECT path FROM files WHERE path = 'src/f1234.ts'")?.path, 'src/f1234.ts');
    assert.ok(image.bytesRead < image.size / 4, `read ${image.bytesRead} of ${image.size} bytes`);
    db.transaction(() => {
      db.run("UPDATE files SET hash = 'changed' WHERE id <= 50");
      db.postings.add(db, 9999, 'fresh', 'src fresh', 'newword');
    });
    assert.equal(sha(readFileSync(path)), onDisk, 'the image file is untouched');
    assert.ok(db.overlayBytes() > 0 && db.overlayBytes() < image.size / 2, `overlay ${db.overlayBytes()} of ${image.size}`);
    assert.equal(termPostings(db, { text: 'newword' }).length, 1);

    // A whole image streamed out holds the changes and opens on its own.
    const draft = await storage.createImage();
    db.writeImage(draft);
    await draft.commit();
    db.rebase(draft);
    assert.equal(db.overlayBytes(), 0, 'rebased: nothing held in memory');
    assert.equal(db.get("SELECT count(*) AS n FROM files WHERE hash = 'changed'")?.n, 50);
    db.close();
    const again = await IndexDatabase.open(assets, (await storage.openImage())!);
    assert.equal(termPostings(again, { text: 'newword' }).length, 1);
    assert.equal(again.get("SELECT count(*) AS n FROM files WHERE hash = 'changed'")?.n, 50);
    again.close();
  });

  it('where images cannot stay open (Windows), holds them in memory and lets go of every file', async () => {
    const { storage, path } = storageIn(false);
    await persistedIndex(storage, 500);
    const db = await IndexDatabase.open(assets, (await storage.openImage())!);
    db.transaction(() => db.run("UPDATE files SET hash = 'x' WHERE id = 7"));
    const draft = await storage.createImage();
    db.writeImage(draft);
    await draft.commit();
    db.rebase(draft);
    assert.equal(db.get("SELECT hash FROM files WHERE id = 7")?.hash, 'x');
    assert.equal(readFileSync(path).length, draft.size);
    const open = readdirSync('/proc/self/fd').map((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return ''; } });
    assert.ok(!open.some((target) => target.startsWith(path)), 'no descriptor on the image or a draft stays open');
    db.close();
  });

  it('packs into a draft: same rows, full-text answers and schema, no free pages, smaller', async () => {
    const { storage, path, dir } = storageIn();
    await persistedIndex(storage, 2000);
    const db = await IndexDatabase.open(assets, (await storage.openImage())!);
    db.transaction(() => db.run('DELETE FROM files WHERE id % 2 = 0'));
    db.transaction(() => packSegments(db));
    const snapshot = (d: IndexDatabase) => ({
      schema: d.rows('SELECT type, name, sql FROM sqlite_schema ORDER BY name'),
      files: d.rows('SELECT * FROM files ORDER BY id'),
      spans: d.rows('SELECT * FROM chunk_spans ORDER BY id'),
      seq: d.rows('SELECT * FROM sqlite_sequence ORDER BY name'),
      meta: d.rows('SELECT * FROM meta ORDER BY key'),
      fts: [...termPostings(d, { text: 'filler' }).idList()],
      one: [...termPostings(d, { text: 'word1999' }).idList()],
    });
    const want = snapshot(db);
    const plain = await storage.createImage();
    db.writeImage(plain);
    const draft = await storage.createImage();
    db.packInto(draft);
    assert.ok(draft.size < plain.size * 0.9, `packed ${draft.size} vs ${plain.size} bytes`);
    plain.close();
    await draft.commit();
    db.rebase(draft);
    assert.deepEqual(snapshot(db), want);
    assert.equal(db.get('PRAGMA freelist_count')?.freelist_count, 0);
    assert.equal(db.get('PRAGMA integrity_check')?.integrity_check, 'ok');
    db.close();
    assert.equal(readFileSync(path).length, draft.size);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'drafts closed uncommitted are deleted');
  });

  it('merges the postings as it packs: the rows that merging in place first gives, the source left as it was', async () => {
    /** An index with one packed segment, then six commits of their own segments sharing terms, one removing a file. */
    const segmented = async () => {
      const { storage } = storageIn();
      await persistedIndex(storage, 300);
      const db = await IndexDatabase.open(assets, (await storage.openImage())!);
      for (let c = 0; c < 6; c++) {
        db.transaction(() => {
          for (let i = 1; i <= 40; i++) {
            const id = 300 + c * 40 + i;
            db.run("INSERT INTO files(id, path, language, size, mtime, hash, lines, indexed_at, text_id) VALUES (?, ?, 'typescript', 10, 0, 'h', 1, 0, 0)", [id, `src/g${id}.ts`]);
            db.run('INSERT INTO chunk_spans(file_id, line_start, line_end) VALUES (?, 1, 1)', [id]);
            db.postings.add(db, id, `name${id % 7}`, `src g${id}`, `filler commit${c} word${id % 50}`);
          }
          if (c === 3) db.run('DELETE FROM files WHERE id = 5');
        });
      }
      return { storage, db };
    };
    const rows = (d: IndexDatabase) => ({
      segs: d.rows('SELECT * FROM postings_segs ORDER BY seg'),
      postings: d.rows('SELECT seg, term, hex(data) FROM postings ORDER BY seg, term'),
    });
    const inPlace = await segmented();
    const asCopied = await segmented();
    const before = rows(asCopied.db);
    assert.equal(before.segs.length, 7, 'the packed segment and one per commit');
    inPlace.db.transaction(() => packSegments(inPlace.db));
    const want = rows(inPlace.db);
    assert.equal(want.segs.length, 1);

    const draft = await asCopied.storage.createImage();
    asCopied.db.packInto(draft);
    assert.deepEqual(rows(asCopied.db), before, 'the source keeps its segments until it is rebased');
    await draft.commit();
    asCopied.db.rebase(draft);
    assert.deepEqual(rows(asCopied.db), want);
    assert.deepEqual([...termPostings(asCopied.db, { text: 'filler' }).idList()], [...termPostings(inPlace.db, { text: 'filler' }).idList()]);
    assert.equal(asCopied.db.get('PRAGMA integrity_check')?.integrity_check, 'ok');
    inPlace.db.close();
    asCopied.db.close();
  });

  it('builds a new database straight into its draft file', async () => {
    const { storage } = storageIn();
    const draft = await storage.createImage();
    const db = await IndexDatabase.create(assets, { generation: 'g' }, draft);
    db.transaction(() => {
      for (let i = 1; i <= 3000; i++) db.run('INSERT INTO skips(path, reason, detail) VALUES (?, ?, ?)', [`p${i}`, 'binary', 'x'.repeat(200)]);
    });
    assert.equal(db.overlayBytes(), 0, 'nothing held in memory');
    assert.ok(draft.size > 600_000, `the draft file holds the rows (${draft.size} bytes)`);
    assert.equal(db.get('SELECT count(*) AS n FROM skips')?.n, 3000);
    db.close();
  });
});
