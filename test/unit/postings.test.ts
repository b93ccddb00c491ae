/**
 * The full-text postings against SQLite's own FTS4 (in the same sql.js): the tokenizer token for token
 * (fts3tokenize), and every count a reader takes from them (matches in docid order, hits per term and column as
 * matchinfo 'y', rows 'n', average lengths 'a') for words, prefixes, phrases and column filters, on chunks written
 * by the real writers, through removals (dead chunks), a journal replay, segment merges and compaction.
 * Needs a build first: `node esbuild.mjs cli worker tests` (dist/ holds the grammars and the queries).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { languageForPath } from '../../src/core/parse/languages';
import { searchableText } from '../../src/core/parse/identifiers';
import { packForIndex, TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import { applyChange, type IndexChange } from '../../src/core/store/changes';
import { chunkTexts } from '../../src/core/store/chunk-texts';
import { nameColumn, pathColumn } from '../../src/core/store/column-texts';
import { compactIndex } from '../../src/core/store/compaction';
import { IndexDatabase } from '../../src/core/store/database';
import type { ImageDraft } from '../../src/core/ports';
import { deadChunkCount, matchAny, PHRASE_CHECK_MAX, postingStats, termPostings, type TermQuery } from '../../src/core/store/postings';
import { TermBuffer, decodeInto, PostingList } from '../../src/core/store/postings-codec';
import { byCodePoint } from '../../src/core/strings';
import { tokens } from '../../src/core/store/tokenize';
import { createNodeAssetLocator } from '../../src/node/assets';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { ASSET_ROOT, REPO_ROOT } from '../helpers/workspace';

const assets = createNodeAssetLocator(ASSET_ROOT);
const service = new TreeSitterService(assets);
const newDb = () => IndexDatabase.create(assets, { schema_version: 'test' });

describe('tokenizer', () => {
  it('gives the tokens of FTS4 simple, byte for byte', async () => {
    const db = await newDb();
    db.run('CREATE VIRTUAL TABLE temp.tok USING fts3tokenize(simple)');
    const ftsTokens = (text: string) => db.rows('SELECT token FROM temp.tok WHERE input = ?', [text]).map((r) => String(r[0]));
    let huge = '';
    for (let i = 0; huge.length < 300_000; i++) huge += `Word${i % 977}_x${(i * 7919) % 13}$Ω${i % 3 ? ' ' : '\n'}é${i % 5}-ÄB ${'z'.repeat(i % 40)} `;
    const fixtures = [
      '', ' ', '___', '$$', 'getUserName get_user_name GET_USER', 'x1 2fa 007 1e10 0x1F', 'foo$bar foo_bar foo-bar foo.bar',
      'café CAFÉ Éa ÉA naïve ŞEHİR straße STRASSE', 'emoji 👋 a👋b 𝒳y', 'tab\tnew\nline\r\ncr', 'nul\u0000inside', '<<>>{}[]()',
      'ÀÉÎõü mixedCASE ÀB', huge,
    ];
    for (const text of fixtures) assert.deepEqual(tokens(text), ftsTokens(text), text.slice(0, 60));
    db.close();
  });

  it('orders terms as SQLite does (UTF-8 bytes), past the BMP too', () => {
    const terms = ['b', 'a', 'ab', 'é', '\uffff', '𝒳', 'z', '\ue000', ''];
    const sorted = [...terms].sort(byCodePoint);
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    assert.deepEqual(sorted, [...terms].sort((x, y) => Buffer.compare(bytes(x), bytes(y))));
  });
});

describe('postings codec', () => {
  it('round-trips runs, and concatenated runs read as one list', () => {
    const a = new TermBuffer();
    const b = new TermBuffer();
    const want = new PostingList();
    for (const [id, n, p, body] of [[1, 0, 0, 1], [130, 2, 0, 0], [20_000, 0, 1, 300], [2 ** 31 - 2, 1, 1, 1]] as const) {
      a.push(id, n, p, body);
      want.push(id, n, p, body);
    }
    b.push(2 ** 31 - 1, 0, 0, 70_000);
    want.push(2 ** 31 - 1, 0, 0, 70_000);
    const run = a.run();
    const joined = new Uint8Array(run.length + b.run().length);
    joined.set(run);
    joined.set(b.run(), run.length);
    const got = new PostingList(1);
    decodeInto(joined, got);
    assert.deepEqual([...got.idList()], [...want.idList()]);
    assert.deepEqual([...got.counts.subarray(0, 3 * got.length)], [...want.counts.subarray(0, 3 * want.length)]);
  });
});

interface Extracted {
  path: string;
  text: string;
  language: string;
  raw: Awaited<ReturnType<TreeSitterService['extract']>>;
}

async function extract(path: string, text: string): Promise<Extracted> {
  const language = languageForPath(path)!.id;
  const raw = await service.extract({ path, language, text });
  return { path, text, language, raw };
}

function writeChange(file: Extracted, now: number): IndexChange {
  return { op: 'write', facts: { path: file.path, language: file.language, size: file.text.length, mtimeMs: now, hash: String(now), lines: file.text.split('\n').length }, result: packForIndex(structuredClone(file.raw), file.text), now };
}

/** FTS4 over the same columns, kept next to the postings: rows are added for new chunks and never deleted, as before. */
class Reference {
  constructor(private readonly db: IndexDatabase) {
    db.run('CREATE VIRTUAL TABLE temp.ref USING fts4(name, path, body, content="", tokenize=simple)');
  }

  /** Adds FTS4 rows for the live chunks it has not seen, with the texts compaction rebuilds. */
  addNew(): void {
    const known = new Set(this.seen);
    const rows = this.db.all('SELECT c.id, c.symbol, f.path FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY c.id').filter((r) => !known.has(Number(r.id)));
    const texts = chunkTexts(this.db, rows.map((r) => Number(r.id)));
    for (const r of rows) {
      const id = Number(r.id);
      this.db.run('INSERT INTO temp.ref(docid, name, path, body) VALUES (?,?,?,?)', [id, nameColumn(r.symbol === null ? undefined : String(r.symbol)), pathColumn(String(r.path)), searchableText(texts.get(id) ?? '')]);
      this.seen.push(id);
    }
  }

  private seen: number[] = [];

  /** Drops everything and adds the live chunks (what compaction's rebuild does). */
  rebuild(): void {
    this.db.run('DROP TABLE temp.ref');
    this.db.run('CREATE VIRTUAL TABLE temp.ref USING fts4(name, path, body, content="", tokenize=simple)');
    this.seen = [];
    this.addNew();
  }

  /** Docids in order, with matchinfo 'pcnay' as numbers. */
  match(expr: string): Array<[number, number[]]> {
    return this.db.rows("SELECT docid, matchinfo(ref, 'pcnay') FROM temp.ref WHERE ref MATCH ?", [expr]).map(([id, blob]) => {
      const b = blob as Uint8Array;
      return [Number(id), [...new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))]];
    });
  }
}

/** The same as Reference.match, from the postings. */
function fromPostings(db: IndexDatabase, queries: TermQuery[]): Array<[number, number[]]> {
  const m = matchAny(db, queries);
  const { docs, avg } = postingStats(db);
  const p = queries.length;
  return Array.from({ length: m.length }, (_, r) => [m.ids[r]!, [p, 3, docs, ...avg, ...m.counts.subarray(3 * p * r, 3 * p * (r + 1))]]);
}

/**
 * FTS4 query syntax of a query: quoted words and phrases, a star for a prefix; a column filter before a bare word (as
 * the oracle's `name:w` is written; FTS4 takes no quotes after one).
 */
function ftsSyntax(q: TermQuery): string {
  if (q.column) return `${q.column}:${q.text}${q.prefix ? '*' : ''}`;
  return q.prefix ? `"${q.text}*"` : `"${q.text}"`;
}

const QUERY_SETS: TermQuery[][] = [
  [{ text: 'router' }],
  [{ text: 'route', prefix: true }, { text: 'handler' }],
  [{ text: 'match', prefix: true }, { text: 'path' }, { text: 'params' }],
  // Phrases: identifiers FTS4 splits (a question's snake_case word), in a row or not.
  [{ text: 'get_path' }, { text: 'route_path' }, { text: 'not_found' }],
  [{ text: 'handler' }, { text: 'return_this' }, { text: 'this route' }],
  [{ text: 'this ro', prefix: true }],
  [{ text: 'router', column: 'name' }, { text: 'router', column: 'path' }, { text: 'src', column: 'path' }],
  [{ text: 'get', column: 'body' }, { text: 'rou', column: 'name', prefix: true }],
  // Empty phrases count as terms and match nothing; a word twice counts twice.
  [{ text: '__' }, { text: 'router' }, { text: 'router' }, { text: '$' }],
  [{ text: 'cafe' }, { text: 'café' }, { text: 'ÉTÉ' }],
];

function assertSameAsFts(db: IndexDatabase, ref: Reference, what: string): void {
  for (const set of QUERY_SETS) {
    const expr = set.map(ftsSyntax).join(' OR ');
    const want = ref.match(expr);
    assert.ok(want.length > 0 || set.some((q) => q.text === 'cafe'), `${what}: ${expr} matches something`);
    assert.deepEqual(fromPostings(db, set), want, `${what}: ${expr}`);
  }
}

const ROUTER = (n: number, extra = '') => `import { Handler } from './types';
// Routes a path to its handler; the café menu says ÉTÉ.
export class Router${n} {
  routes: Array<[string, Handler]> = [];
  add_route(route_path: string, handler: Handler) { this.routes.push([route_path, handler]); return this; }
  match(path: string): Handler | undefined { for (const [p, h] of this.routes) if (get_path(p) === path) return h; return not_found(path); }
}
function get_path(p: string): string { return p.replace(/\\/+$/, ''); } // get path, get_path get_path
function not_found(path: string): undefined { return undefined; }
${extra}`;

describe('postings against FTS4', () => {
  it('hold what FTS4 held through writes, removals, merges and compaction, and a journal replays to the same rows', async () => {
    const files = await Promise.all(Array.from({ length: 20 }, (_, i) => extract(`src/r${i % 4}/router${i}.ts`, ROUTER(i, i % 3 ? '' : 'export const this_route = 1; // this route, this router'))));
    const db = await newDb();
    const replica = await newDb();
    const ref = new Reference(db);
    const changes: IndexChange[][] = [];
    const apply = (batch: IndexChange[]) => {
      db.transaction(() => { for (const c of batch) applyChange(db, c); });
      changes.push(batch);
    };
    // One transaction per file: twenty segments, merged FANOUT at a time.
    for (const f of files) apply([writeChange(f, 1)]);
    ref.addNew();
    assert.ok(Number(db.get('SELECT count(*) AS n FROM postings_segs')!.n) < 20, 'segments were merged');
    assertSameAsFts(db, ref, 'written');

    // Rewrites and removals: the old chunks' postings stay, dead, and still count.
    const rewritten = await extract('src/r1/router1.ts', ROUTER(1, 'export function get_path_twice() { return get_path(get_path("a")); }'));
    apply([writeChange(rewritten, 2), { op: 'remove', path: 'src/r2/router2.ts' }, { op: 'remove', path: 'src/r0/router4.ts' }]);
    ref.addNew();
    assert.ok(Number(db.get('SELECT count(*) AS n FROM dead_chunks')!.n) > 0);
    assertSameAsFts(db, ref, 'with dead chunks');
    // A rewritten file's new chunks get new ids: none inherits the dead chunk's postings.
    const alone = termPostings(db, { text: 'twice' });
    assert.equal(alone.length, 1);
    assert.ok(alone.ids[0]! > Math.max(...db.rows("SELECT id FROM dead_chunks").map((r) => Number(r[0]))));

    // A journal replays through the same writers to the same rows.
    for (const batch of changes) replica.transaction(() => { for (const c of batch) applyChange(replica, c); });
    const rowsOf = (d: IndexDatabase) => ({
      postings: d.rows('SELECT seg, term, hex(data) FROM postings ORDER BY seg, term'),
      segs: d.rows('SELECT * FROM postings_segs ORDER BY seg'),
      sizes: d.rows('SELECT * FROM chunk_sizes ORDER BY id'),
      dead: d.rows('SELECT * FROM dead_chunks ORDER BY id'),
      totals: d.rows("SELECT value FROM meta WHERE key = 'postings_totals'"),
    });
    assert.deepEqual(rowsOf(replica), rowsOf(db));

    // Compaction rebuilds from the live chunks, as a fresh FTS4 table would hold them.
    const report = compactIndex(db, { rebuild: true });
    assert.equal(report.rebuilt, true);
    assert.equal(Number(db.get('SELECT count(*) AS n FROM postings_segs')!.n), 1, 'packed into one segment');
    assert.equal(Number(db.get('SELECT count(*) AS n FROM dead_chunks')!.n), 0);
    ref.rebuild();
    assertSameAsFts(db, ref, 'compacted');
    db.close();
    replica.close();
  });

  it('a bulk load writes few segments and packs them into one, which later commits never merge into', async () => {
    const files = await Promise.all(Array.from({ length: 12 }, (_, i) => extract(`src/r${i % 3}/router${i}.ts`, ROUTER(i, i % 2 ? '' : 'export const this_route = 1; // this route, this router'))));
    const db = await IndexDatabase.create(assets, { schema_version: 'test' }, undefined, { bulk: true });
    const ref = new Reference(db);
    for (const f of files.slice(0, 8)) db.transaction(() => applyChange(db, writeChange(f, 1)));
    assert.equal(Number(db.get('SELECT count(*) AS n FROM postings_segs')!.n), 0, 'nothing flushed yet: a bulk load flushes by size');
    compactIndex(db, { pack: true });
    db.postings.deferred = false; // what writing the image does: the bulk load is over
    const packed = db.rows('SELECT seg, level FROM postings_segs');
    assert.equal(packed.length, 1);
    ref.addNew();
    assertSameAsFts(db, ref, 'bulk, packed');
    // Four one-file commits, then four rewrites: eight small segments merge into one, the packed one stays as it is.
    for (const f of files.slice(8)) db.transaction(() => applyChange(db, writeChange(f, 2)));
    ref.addNew();
    for (const f of files.slice(8)) db.transaction(() => applyChange(db, writeChange(f, 3)));
    const segs = db.rows('SELECT seg, level FROM postings_segs ORDER BY seg');
    assert.deepEqual(segs[0], packed[0], 'the packed segment is untouched');
    assert.equal(segs.length, 2, 'the eight commits\' segments were merged into one');
    ref.addNew();
    assertSameAsFts(db, ref, 'bulk, then commits');
    db.close();
  });

  it('in a bulk load, a rollback after kept commits stops the postings from being written short', async () => {
    const db = await IndexDatabase.create(assets, { schema_version: 'test' }, undefined, { bulk: true });
    db.transaction(() => db.postings.add(db, 1, 'a', 'b', 'kept'));
    assert.throws(() => db.transaction(() => {
      db.postings.add(db, 2, 'a', 'b', 'lost');
      throw new Error('write failed');
    }), /write failed/);
    assert.throws(() => termPostings(db, { text: 'kept' }), /must be rebuilt/);
    db.close();
  });

  it('writes a bulk load\'s last postings, flushed outside any transaction, as one commit: each page once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'co-postings-'));
    const draft = await createFileIndexStorage(join(dir, 'index.db')).createImage();
    let writes = 0;
    const counting: ImageDraft = {
      get size() { return draft.size; },
      read: (into, at) => draft.read(into, at),
      write(bytes, at) { writes++; draft.write(bytes, at); },
      commit: () => draft.commit(),
      close: () => draft.close(),
    };
    const db = await IndexDatabase.create(assets, { schema_version: 'test' }, counting, { bulk: true });
    try {
      db.transaction(() => {
        for (let id = 1; id <= 3000; id++) db.postings.add(db, id, `name${id}`, `src/f${id % 50}.ts`, `word${id} shared body${id % 97} text${id * 7}`);
      });
      assert.equal(Number(db.get('SELECT count(*) AS n FROM postings_segs')!.n), 0, 'still collected');
      writes = 0;
      assert.equal(deadChunkCount(db), 0); // a reader: it flushes first, here outside any transaction
      const pages = Number(db.get('PRAGMA page_count')!.page_count);
      // Statement by statement, every commit wrote its dirty pages again: ~4x the pages.
      assert.ok(writes > 0 && writes <= pages, `${writes} page writes for ${pages} pages`);
      assert.equal(termPostings(db, { text: 'shared' }).length, 3000);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a chunk id that is not past the last one written (a reused id would inherit dead postings)', async () => {
    const db = await newDb();
    db.transaction(() => db.postings.add(db, 5, 'a', 'b', 'c'));
    assert.throws(() => db.transaction(() => db.postings.add(db, 5, 'a', 'b', 'c')), /not past the last chunk written|added after/);
    assert.throws(() => db.transaction(() => db.postings.add(db, 3, 'a', 'b', 'c')), /not past the last chunk written/);
    db.transaction(() => db.postings.add(db, 6, 'a', 'b', 'c'));
    assert.equal(termPostings(db, { text: 'c' }).length, 2, 'the refused writes were rolled back');
    db.close();
  });

  it('counts a phrase with more candidates than it checks by its tokens\' fewest hits per column, without reading text', async () => {
    const db = await newDb();
    db.run('CREATE VIRTUAL TABLE temp.ref USING fts4(name, path, body, content="", tokenize=simple)');
    // No chunk rows: the texts a check would read do not exist, so every candidate counted comes from the postings.
    const bodies = ['get_value get value', 'get a value get b', 'value get', 'get only'];
    const count = PHRASE_CHECK_MAX + 10;
    db.transaction(() => {
      for (let id = 1; id <= count; id++) {
        const body = bodies[id % bodies.length]!;
        db.postings.add(db, id, 'get_value', 'src', body);
        db.run('INSERT INTO temp.ref(docid, name, path, body) VALUES (?,?,?,?)', [id, 'get_value', 'src', body]);
      }
    });
    const list = termPostings(db, { text: 'get_value' });
    const want = db.rows("SELECT docid, matchinfo(ref, 'y') FROM temp.ref WHERE ref MATCH 'get OR value'").map(([id, blob]) => {
      const b = blob as Uint8Array;
      const y = new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
      return [Number(id), [0, 1, 2].map((c) => Math.min(y[c]!, y[3 + c]!))] as const;
    });
    assert.equal(list.length, count, 'every chunk holds both tokens in its name');
    assert.deepEqual(Array.from({ length: list.length }, (_, i) => [list.ids[i]!, [...list.counts.subarray(3 * i, 3 * i + 3)]]), want);
    // As the parts of one identifier the fewest hits are the phrase's count (2: get value get value); apart they bound it.
    const at = (id: number) => [...list.counts.subarray(3 * (id - 1), 3 * id)];
    assert.deepEqual([at(4), at(1), at(2), at(3)], [[1, 0, 2], [1, 0, 1], [1, 0, 1], [1, 0, 0]]);
    db.close();
  });

  it('reads this repository\'s own sources as FTS4 does', async () => {
    const paths = ['src/core/store/file-writes.ts', 'src/core/context/text-retrieval.ts', 'src/core/parse/identifiers.ts', 'README.md'].filter((p) => languageForPath(p));
    const db = await newDb();
    const ref = new Reference(db);
    for (const p of paths) {
      const f = await extract(p, readFileSync(join(REPO_ROOT, p), 'utf8'));
      db.transaction(() => applyChange(db, writeChange(f, 1)));
    }
    ref.addNew();
    for (const set of [[{ text: 'chunk', prefix: true }, { text: 'file_id' }, { text: 'db' }], [{ text: 'search_text' }, { text: 'text', column: 'name' as const }]]) {
      assert.deepEqual(fromPostings(db, set), ref.match(set.map(ftsSyntax).join(' OR ')));
    }
    db.close();
  });
});
