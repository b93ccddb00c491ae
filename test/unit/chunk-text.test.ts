/**
 * The index keeps code text once per file and rebuilds chunk text from it: golden over this repository's own
 * sources and every language fixture (each chunk rebuilt from the index equals the text the extractor made), and the
 * contentless full-text table's dead rows and compaction.
 * Needs a build first: `node esbuild.mjs cli worker tests` (dist/ holds the grammars and the queries).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { languageForPath } from '../../src/core/parse/languages';
import { packForIndex, TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import type { ParseResult } from '../../src/core/parse/types';
import { searchChunks } from '../../src/core/search/full-text';
import { chunkTexts } from '../../src/core/store/chunk-texts';
import { compactIndex } from '../../src/core/store/compaction';
import { deadChunkCount as deadFtsRows, termPostings } from '../../src/core/store/postings';
import { IndexDatabase } from '../../src/core/store/database';
import { memoryImage } from '../../src/core/store/paged-file';
import { exportImage } from '../../src/core/store/shared-image';
import { removeFile, writeFile } from '../../src/core/store/file-writes';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT, REPO_ROOT } from '../helpers/workspace';

const assets = createNodeAssetLocator(ASSET_ROOT);
const service = new TreeSitterService(assets);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) out.push(...sources(abs));
    else if (languageForPath(abs)) out.push(relative(REPO_ROOT, abs).split('\\').join('/'));
  }
  return out.sort();
}

interface Extracted {
  path: string;
  text: string;
  /** With every chunk's text, as the extractor made it. */
  raw: ParseResult;
}

async function extract(path: string, text = readFileSync(join(REPO_ROOT, path), 'utf8')): Promise<Extracted> {
  const raw = await service.extract({ path, language: languageForPath(path)!.id, text });
  assert.equal(raw.error, undefined, `${path}: ${raw.error?.message}`);
  return { path, text, raw };
}

function write(db: IndexDatabase, file: Extracted, now = 1): void {
  const packed = packForIndex(structuredClone(file.raw), file.text);
  const lines = file.text.split('\n').length;
  db.transaction(() => writeFile(db, { path: file.path, language: file.raw.language, size: file.text.length, mtimeMs: now, hash: String(now), lines }, packed, now));
}

const newDb = () => IndexDatabase.create(assets, { schema_version: 'test' });

describe('chunk text rebuilt from the stored file text', () => {
  it('equals the extracted text for every chunk of this repository and the language fixtures (golden)', async () => {
    const files = await Promise.all([...sources(join(REPO_ROOT, 'src')), ...sources(join(REPO_ROOT, 'test/fixtures/languages'))].map((p) => extract(p)));
    const db = await newDb();
    for (const f of files) write(db, f);
    let chunks = 0;
    let withDoc = 0;
    let withMembers = 0;
    for (const f of files) {
      const fileId = Number(db.get('SELECT id FROM files WHERE path = ?', [f.path])!.id);
      const ids = db.all('SELECT id FROM chunk_spans WHERE file_id = ? ORDER BY id', [fileId]).map((r) => Number(r.id));
      assert.equal(ids.length, f.raw.chunks.length, f.path);
      const texts = chunkTexts(db, ids);
      f.raw.chunks.forEach((c, i) => {
        assert.equal(texts.get(ids[i]!), c.text, `${f.path} chunk ${i} (${c.symbol ?? c.kind} ${c.lineStart}-${c.lineEnd})`);
        chunks++;
        const doc = c.symbolIndex === undefined ? undefined : f.raw.symbols[c.symbolIndex]!.doc;
        const docLines = doc !== undefined && c.text.startsWith(`${doc}\n`) ? doc.split('\n').length : 0;
        if (docLines) withDoc++;
        if (c.text.split('\n').length > docLines + c.lineEnd - c.lineStart + 1) withMembers++;
      });
      // SQLite's length() counts code points; the ranking normalises by the stored sum.
      const chars = f.raw.chunks.reduce((n, c) => n + [...c.text].length, 0);
      assert.equal(Number(db.get('SELECT chunk_chars FROM files WHERE id = ?', [fileId])!.chunk_chars), chars, f.path);
    }
    assert.ok(files.length > 200 && chunks > 2000, `${files.length} files, ${chunks} chunks`);
    assert.ok(withDoc > 100 && withMembers > 50, `doc-prefixed ${withDoc}, with members ${withMembers}`);
    db.close();
  });

  it('keeps the text as indexed: caps, CRLF, a byte-order mark and astral characters survive the round trip', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `  const v${i} = '${'x'.repeat(40)}';`).join('\r\n');
    const text = `\uFEFF/** Says hi 👋 */\r\nexport function big() {\r\n${long}\r\n}\r\nexport class Box {\r\n  open() {}\r\n}\r\n`;
    const file = await extract('weird.ts', text);
    const db = await newDb();
    write(db, file);
    const ids = db.all('SELECT id FROM chunk_spans ORDER BY id').map((r) => Number(r.id));
    const texts = chunkTexts(db, ids);
    assert.deepEqual(ids.map((id) => texts.get(id)), file.raw.chunks.map((c) => c.text));
    const big = file.raw.chunks.find((c) => c.symbol === 'big')!;
    assert.ok(big.text.startsWith('Says hi 👋\n'), big.text.slice(0, 40));
    assert.equal(big.text.length, 'Says hi 👋\n'.length + 8_000, 'the line cap, then the character cap applied');
    db.close();
  });
});

describe('full-text postings of removed chunks', () => {
  it('an exported index has no dead rows and ranks as a fresh index does; the index it came from is left as it was', async () => {
    const files = await Promise.all(Array.from({ length: 8 }, (_, i) => extract(`src/f${i}.ts`, `export function router${i}() { return ${i}; }\n`)));
    const changed = await extract('src/f0.ts', 'export function deltaRouter() { return 4; }\n');
    const db = await newDb();
    for (const f of files) write(db, f);
    write(db, changed, 2);
    assert.equal(deadFtsRows(db), 1, 'one dead row, under the share that compacts on a commit');
    const fresh = await newDb();
    for (const f of [changed, ...files.slice(1)]) write(fresh, f);
    assert.notDeepEqual(searchChunks(db, 'router'), searchChunks(fresh, 'router'), 'the dead row counts in BM25');

    const exported = await IndexDatabase.open(assets, memoryImage(await exportImage(assets, db)));
    assert.equal(deadFtsRows(exported), 0);
    assert.deepEqual(searchChunks(exported, 'router'), searchChunks(fresh, 'router'));
    assert.equal(deadFtsRows(db), 1);
    for (const d of [db, fresh, exported]) d.close();
  });

  it('leaves dead rows on removal that match nothing, and compaction rebuilds the table as a fresh index would', async () => {
    const a = await extract('src/a.ts', 'export function alphaRouter() { return 1; }\nexport function betaRouter() { return 2; }\n');
    const b = await extract('src/b.ts', 'export function gammaRouter() { return 3; }\n');
    const b2 = await extract('src/b.ts', 'export function deltaRouter() { return 4; }\n');
    const db = await newDb();
    write(db, a);
    write(db, b);
    write(db, b2, 2); // replaces b: its chunk's row is dead now
    assert.equal(deadFtsRows(db), 1);
    assert.deepEqual(searchChunks(db, 'gamma'), [], 'a dead row matches no chunk');
    db.transaction(() => removeFile(db, 'src/a.ts'));
    assert.equal(deadFtsRows(db), 3);
    assert.deepEqual(searchChunks(db, 'alpha'), []);
    assert.equal(termPostings(db, { text: 'router' }).length, 4, 'three dead chunks and the live one still hold the term');

    assert.deepEqual(compactIndex(db), { live: 1, dead: 3, rebuilt: true, packed: true });
    assert.equal(deadFtsRows(db), 0);
    assert.equal(termPostings(db, { text: 'router' }).length, 1);
    const fresh = await newDb();
    write(fresh, b2, 2);
    assert.deepEqual(searchChunks(db, 'delta router'), searchChunks(fresh, 'delta router'));
    assert.equal(searchChunks(db, 'delta router')[0]?.symbol, 'deltaRouter');
    // Below the limit the table stays; packing alone leaves the answers as they were.
    assert.deepEqual(compactIndex(db), { live: 1, dead: 0, rebuilt: false, packed: true });
    assert.deepEqual(searchChunks(db, 'delta router'), searchChunks(fresh, 'delta router'));
    db.close();
    fresh.close();
  });

  it('never reuses a chunk id, so a new chunk does not inherit a dead row', async () => {
    const a = await extract('src/a.ts', 'export function onlyHere() { return 1; }\n');
    const c = await extract('src/c.ts', 'export function somethingElse() { return 2; }\n');
    const db = await newDb();
    write(db, a);
    db.transaction(() => removeFile(db, 'src/a.ts'));
    write(db, c);
    assert.deepEqual(searchChunks(db, 'only here'), []);
    db.close();
  });
});
