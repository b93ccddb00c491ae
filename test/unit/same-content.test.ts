/**
 * One parse per distinct content: files with identical bytes are indexed as copies of the first one's rows, and the
 * copy holds what parsing it would have given (symbols, references, imports, annotations, chunks and their search
 * rows), in a bulk load, in an incremental run, and through the journal.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { runIndex } from '../../src/core/index/indexer';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import type { EngineDeps, ParserHost } from '../../src/core/ports';
import { chunkTexts } from '../../src/core/store/chunk-texts';
import { IndexDatabase } from '../../src/core/store/database';
import { indexedTerms, termPostings } from '../../src/core/store/postings';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const SHARED = `import { readFile } from 'node:fs';
import { join as joinPath } from 'node:path';

// oracle: owner=storage
/** Keeps things. */
export class Store {
  private items: string[] = [];
  /** Adds one. */
  add(item: string): void {
    this.items.push(normalise(item));
    readFile(joinPath('a', item), () => undefined);
  }
  count(): number { return this.items.length; }
}

export function normalise(s: string): string {
  return s.trim().toLowerCase();
}

export const DEFAULT_STORE = new Store();
DEFAULT_STORE.add('x');
`;
const OTHER = 'export function other(): number { return normalise(" y ").length; }\nimport { normalise } from "./lib/store";\n';

const assets = createNodeAssetLocator(ASSET_ROOT);

/** A real in-process parser host that counts the files it is asked to parse. */
function countingParser(): { host: ParserHost; parsed: string[] } {
  const inner = createInProcessParserHost(assets);
  const parsed: string[] = [];
  return {
    parsed,
    host: { ...inner, parse: (requests, signal) => { parsed.push(...requests.map((r) => r.path)); return inner.parse(requests, signal); } },
  };
}

async function indexInto(root: string, db: IndexDatabase, full: boolean, parser: ParserHost) {
  let clock = 1_000;
  const deps: EngineDeps = {
    root, fs: nodeFileSystem, logger: captureLogger(), clock: { now: () => clock++ }, assets, parser,
    storage: undefined as unknown as EngineDeps['storage'],
  };
  return runIndex(deps, { ...DEFAULT_CONFIG, batchSize: 2 }, db, full);
}

function workspace(files: Record<string, string>): string {
  const root = makeWorkspace(files);
  roots.push(root);
  return root;
}

/** Everything the index holds for one file, without row ids (which differ by file). */
function dump(db: IndexDatabase, path: string) {
  const file = db.get('SELECT id, language, size, hash, lines, has_errors, annotations, chunk_chars, text_id FROM files WHERE path = ?', [path]);
  assert.ok(file, `${path} is indexed`);
  const id = Number(file.id);
  const chunkRows = db.all('SELECT id, symbol, kind, line_start, line_end, container, signature FROM chunks WHERE file_id = ? ORDER BY id', [id]);
  const texts = chunkTexts(db, chunkRows.map((c) => Number(c.id)));
  return {
    file: { ...file, id: undefined, text_id: undefined },
    symbols: db.all('SELECT name, qualified_name, kind, container, line_start, line_end, name_line, name_col, name_end_col, signature FROM symbols WHERE file_id = ? ORDER BY id', [id]),
    refs: db.all('SELECT name, kind, line, col, end_col, in_symbol FROM refs WHERE file_id = ?', [id]),
    imports: db.all('SELECT source, names, line FROM imports WHERE file_id = ? ORDER BY rowid', [id]),
    annotations: db.all(`SELECT a.key, a.value, s.qualified_name FROM annotations a LEFT JOIN symbols s ON s.id = a.symbol_id
      WHERE a.file_id = ? ORDER BY a.rowid`, [id]),
    chunks: chunkRows.map((c) => ({ ...c, id: undefined, text: texts.get(Number(c.id)) })),
    // Search rows: the chunk ids each term of the name and body columns finds, as places in the file's chunk list.
    search: searchRows(db, chunkRows.map((c) => Number(c.id))),
  };
}

function searchRows(db: IndexDatabase, chunkIds: number[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const term of indexedTerms(db)) {
    for (const column of ['name', 'body'] as const) {
      // The path column differs by path, as it should.
      const hits = termPostings(db, { text: term, column }).idList();
      const mine = chunkIds.map((id, at) => (hits.includes(id) ? at : -1)).filter((at) => at >= 0);
      if (mine.length) out[`${column}:${term}`] = mine;
    }
  }
  return out;
}

describe('one parse per distinct content', () => {
  it('a bulk load parses identical files once, and the copies hold what their own parse gives', async () => {
    const files = { 'a/lib/store.ts': SHARED, 'b/lib/store.ts': SHARED, 'a/other.ts': OTHER, 'c/deep/store.ts': SHARED, 'b/other.ts': OTHER };
    const root = workspace(files);
    const counting = countingParser();
    const db = await IndexDatabase.create(assets, {}, undefined, { bulk: true });
    const report = await indexInto(root, db, true, counting.host);
    assert.deepEqual(counting.parsed.sort(), ['a/lib/store.ts', 'a/other.ts']);
    assert.equal(report.parsed, 5);
    assert.equal(report.reused, 3);
    assert.equal(report.bytesParsed, SHARED.length + OTHER.length);

    // Each copy against an index where that file alone was parsed.
    for (const path of ['b/lib/store.ts', 'c/deep/store.ts', 'b/other.ts']) {
      const alone = await IndexDatabase.create(assets, {});
      const parser = countingParser();
      await indexInto(workspace({ [path]: files[path as keyof typeof files] }), alone, true, parser.host);
      assert.deepEqual(parser.parsed, [path]);
      const copied = dump(db, path);
      assert.ok(copied.symbols.length >= 4 && copied.refs.length >= 4 && copied.chunks.length >= 2 || path.endsWith('other.ts'));
      assert.deepEqual(copied, dump(alone, path), path);
      alone.close();
      await parser.host.dispose();
    }
    // The full-text search finds every copy, under its own path.
    const ids = [...termPostings(db, { text: 'normalise' }).idList()];
    const byPath = db.all(`SELECT DISTINCT f.path FROM chunk_spans c JOIN files f ON f.id = c.file_id
      WHERE c.id IN (${ids.join(',')}) ORDER BY f.path`).map((r) => r.path);
    assert.deepEqual(byPath, ['a/lib/store.ts', 'a/other.ts', 'b/lib/store.ts', 'b/other.ts', 'c/deep/store.ts']);
    assert.equal(termPostings(db, { text: 'deep', column: 'path' }).length, dump(db, 'c/deep/store.ts').chunks.length);
    db.close();
    await counting.host.dispose();
  });

  it('an edit to one of two identical files parses only that one; a new copy of an indexed file parses nothing', async () => {
    const root = workspace({ 'a/store.ts': SHARED, 'b/store.ts': SHARED });
    const db = await IndexDatabase.create(assets, {});
    const first = countingParser();
    await indexInto(root, db, true, first.host);
    assert.deepEqual(first.parsed, ['a/store.ts']);
    const before = dump(db, 'a/store.ts');

    writeFileSync(join(root, 'b/store.ts'), SHARED.replaceAll('normalise', 'canonical'));
    const second = countingParser();
    const edit = await indexInto(root, db, false, second.host);
    assert.deepEqual(second.parsed, ['b/store.ts']);
    assert.equal(edit.reused, 0);
    assert.deepEqual(dump(db, 'a/store.ts'), before);
    assert.ok(dump(db, 'b/store.ts').symbols.some((s) => s.name === 'canonical'));

    // A copy of a file the index holds (a file duplicated, or moved: the old path leaves in the same run).
    mkdirSync(join(root, 'c'));
    cpSync(join(root, 'a/store.ts'), join(root, 'c/store.ts'));
    const third = countingParser();
    const copy = await indexInto(root, db, false, third.host);
    assert.deepEqual(third.parsed, []);
    assert.equal(copy.reused, 1);
    const copied = dump(db, 'c/store.ts');
    assert.deepEqual({ ...copied, search: undefined }, { ...before, search: undefined });
    assert.deepEqual(Object.keys(copied.search).sort(), Object.keys(before.search).sort());
    db.close();
    for (const p of [first, second, third]) await p.host.dispose();
  });

  it('a copy made by an incremental run is replayed from the journal as it was written', async () => {
    const root = workspace({ 'a/store.ts': SHARED });
    const engine = testEngine(root);
    await engine.index();
    const target = join(root, 'moved/store.ts');
    mkdirSync(dirname(target));
    writeFileSync(target, SHARED);
    const run = await engine.index();
    assert.equal(run.reused, 1);
    assert.equal(run.bytesParsed, 0);
    const names = async (e: typeof engine) => (await e.search('normalise store')).map((h) => `${h.path}:${h.symbol}`).sort();
    const live = await names(engine);
    assert.ok(live.includes('moved/store.ts:normalise'), live.join(' '));
    await engine.dispose();
    // A second engine loads the image and replays the run's journal record.
    const reopened = testEngine(root);
    assert.deepEqual(await names(reopened), live);
    await reopened.dispose();
  });
});
