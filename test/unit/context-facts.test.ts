/**
 * The context's per-index facts are updated in place by a commit (rewritten, added and removed files) and must then
 * equal the facts read from scratch; the import resolver's indexes answer like the scans they replace.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { dbFacts, type DbFacts } from '../../src/core/context/db-facts';
import { byCodePoint } from '../../src/core/strings';
import { runIndex } from '../../src/core/index/indexer';
import { ImportResolver } from '../../src/core/navigation/imports';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import type { EngineDeps } from '../../src/core/ports';
import { searchableText } from '../../src/core/parse/identifiers';
import { chunkTexts } from '../../src/core/store/chunk-texts';
import { nameColumn } from '../../src/core/store/column-texts';
import { IndexDatabase } from '../../src/core/store/database';
import { tokens } from '../../src/core/store/tokenize';
import { memoryImage } from '../../src/core/store/paged-file';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, writeFiles } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const FILES = {
  'src/server.ts': "import { route } from './router';\nimport { Session } from './auth/session';\nexport function listen(port: number) { route('/'); return new Session(port); }\n",
  'src/router.ts': "import { Session } from './auth/session';\nexport function route(path: string) { return new Session(path.length); }\n",
  'src/auth/session.ts': 'export class Session {\n  constructor(readonly id: number) {}\n  renew() { return new Session(this.id + 1); }\n}\n',
  'app/models/user.py': 'from app.models.base import Model\n\nclass User(Model):\n    def save(self):\n        return 1\n',
  'app/models/base.py': 'class Model:\n    def save(self):\n        return 0\n',
  'lib/Util.java': 'package lib;\nimport lib.Helper;\npublic class Util { int run() { return new Helper().help(); } }\n',
  'lib/Helper.java': 'package lib;\npublic class Helper { int help() { return 1; } }\n',
  // Enough other files that a commit of one or two is an update, not a reason to read everything again.
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`pad/p${i}.ts`, `export const p${i} = ${i};\n`])),
};

let clock = 1_000;
function deps(root: string): EngineDeps {
  const assets = createNodeAssetLocator(ASSET_ROOT);
  return {
    root, fs: nodeFileSystem, logger: captureLogger(), clock: { now: () => clock++ }, assets, parser: createInProcessParserHost(assets),
    storage: undefined as unknown as EngineDeps['storage'],
  };
}

/** The facts as plain data, for comparing an updated set with a freshly read one. */
function snapshot(f: DbFacts): unknown {
  const links = [...f.imports()].map(([id, set]) => [f.files.get(id)!.path, [...set].map((t) => f.files.get(t)!.path).sort()] as const);
  return {
    files: [...f.files.values()],
    byPath: [...f.byPath.keys()].sort(),
    chunks: [...f.chunks.values()].sort((a, b) => a.id - b.id),
    lengths: [...f.chunks.values()].map((c) => [c.id, f.chunks.nameLength(c.id), f.chunks.bodyLength(c.id)]).sort((a, b) => a[0]! - b[0]!),
    pathFiles: [...f.pathFiles].map(([t, ids]) => [t, [...ids].map((id) => f.files.get(id)!.path).sort()] as const).sort((a, b) => a[0].localeCompare(b[0])),
    stemCounts: [...f.stemCounts].sort((a, b) => a[0].localeCompare(b[0])),
    definingFiles: [...f.definingFiles].sort(),
    symbolNames: f.symbolNames,
    idfFiles: f.idfFiles,
    avgChars: f.avgChars,
    links: links.sort((a, b) => a[0].localeCompare(b[0])),
  };
}

/**
 * Every chunk's kept column lengths equal the number of tokens in its name and body columns, rebuilt from the index
 * (the symbol's name, the chunk's text made searchable) and tokenized as the postings are.
 */
function assertLengthsMatchFts(db: IndexDatabase, f: DbFacts, what: string): void {
  const chunks = [...f.chunks.values()];
  const texts = chunkTexts(db, chunks.map((c) => c.id));
  for (const c of chunks) {
    const expected = [tokens(nameColumn(c.symbol)).length, tokens(searchableText(texts.get(c.id) ?? '')).length];
    assert.deepEqual([f.chunks.nameLength(c.id), f.chunks.bodyLength(c.id)], expected, `${what}: lengths of chunk ${c.id}`);
  }
  assert.ok(chunks.some((c) => f.chunks.nameLength(c.id) > 0) && chunks.every((c) => f.chunks.bodyLength(c.id) > 0), `${what}: lengths were read`);
}

/**
 * The facts read symbols and chunks from their tables (symbol_rows, chunk_spans, ref_names), not through the views:
 * what they hold must be what the views give, row for row, with names per file in the views' order.
 */
function assertMatchesViews(db: IndexDatabase, f: DbFacts, what: string): void {
  const viewChunks = db.rows('SELECT id, file_id, kind, line_start, line_end, symbol FROM chunks ORDER BY id').map(([id, fileId, kind, start, end, symbol]) => ({
    id: Number(id), fileId: Number(fileId), kind: String(kind), lineStart: Number(start), lineEnd: Number(end), ...(symbol === null ? {} : { symbol: String(symbol) }),
  }));
  assert.deepEqual([...f.chunks.values()], viewChunks, `${what}: chunks as the view gives them`);
  assert.ok(viewChunks.some((c) => c.symbol?.includes('.')), `${what}: some chunk's symbol has a container`);
  const all = new Map<number, string[]>();
  const linked = new Map<number, string[]>();
  for (const [fileId, name, kind] of db.rows('SELECT file_id, name, kind FROM symbols')) {
    const put = (m: Map<number, string[]>): void => {
      const list = m.get(Number(fileId)) ?? [];
      if (!list.includes(String(name))) list.push(String(name));
      m.set(Number(fileId), list);
    };
    put(all);
    if (kind !== 'field' && kind !== 'variable') put(linked);
  }
  for (const id of f.files.keys()) {
    assert.deepEqual(f.names.namesOf(id), all.get(id) ?? [], `${what}: names of file ${id}`);
    assert.deepEqual(f.names.linkedNamesOf(id), linked.get(id) ?? [], `${what}: linked names of file ${id}`);
  }
}

describe('context facts', () => {
  it('after a commit, equal the facts read from scratch (rewrite, add, remove, same-id rewrite)', async () => {
    const root = makeWorkspace(FILES);
    roots.push(root);
    const d = deps(root);
    const db = await IndexDatabase.create(d.assets, {});
    await runIndex(d, DEFAULT_CONFIG, db, true);
    const before = dbFacts(db);
    before.imports();
    assert.ok(before.definingFiles.get('Session') === 1 && before.imports().size > 0);
    assertLengthsMatchFts(db, before, 'full read');
    assertMatchesViews(db, before, 'full read');

    const fresh = async (): Promise<DbFacts> => dbFacts(await IndexDatabase.open(d.assets, memoryImage(db.export())));
    const steps: Array<[string, () => void, string[]]> = [
      ['rewrite one file', () => writeFiles(root, { 'src/router.ts': "import { listen } from './server';\nexport function route(p: string) { return listen(p.length); }\nexport function extra() {}\n" }), ['src/router.ts']],
      // The file with the highest id, rewritten: SQLite hands its id out again.
      ['rewrite the newest file', () => writeFiles(root, { 'src/router.ts': 'export function route() { return 2; }\n' }), ['src/router.ts']],
      ['add a file', () => writeFiles(root, { 'src/auth/token.ts': "import { Session } from './session';\nexport function token(s: Session) { return s.id; }\n" }), ['src/auth/token.ts']],
      ['remove a file', () => rmSync(join(root, 'app/models/base.py')), ['app/models/base.py']],
      ['rewrite two files at once', () => writeFiles(root, { 'lib/Helper.java': 'package lib;\npublic class Helper { int help() { return 2; } int more() { return 3; } }\n', 'src/server.ts': 'export function listen() {}\n' }), ['lib/Helper.java', 'src/server.ts']],
    ];
    for (const [what, change, paths] of steps) {
      change();
      await runIndex(d, DEFAULT_CONFIG, db, false, { onlyPaths: paths });
      const updated = dbFacts(db);
      assert.equal(updated, before, `${what}: updated in place, not read again`);
      assert.deepEqual(snapshot(updated), snapshot(await fresh()), what);
      assertLengthsMatchFts(db, updated, what);
      assertMatchesViews(db, updated, what);
      assert.equal(updated.edges.size, 0, `${what}: cached edges are dropped`);
    }
    // Rows the views read their own way: a symbol with an unknown kind code (its chunk reads as kind 'file' and keeps
    // its symbol) and one whose name is missing (left out of `symbols`; its chunk has no symbol).
    const odd = await IndexDatabase.open(d.assets, memoryImage(db.export()));
    odd.run('UPDATE symbol_rows SET kind = 99 WHERE id = (SELECT min(symbol_id) FROM chunk_spans)');
    odd.run('UPDATE symbol_rows SET name_id = -5 WHERE id = (SELECT max(symbol_id) FROM chunk_spans)');
    assertMatchesViews(odd, dbFacts(odd), 'odd rows');
    assert.ok([...dbFacts(odd).chunks.values()].some((c) => c.kind === 'file' && c.symbol !== undefined), 'odd rows: a file-kind chunk with a symbol');
    assert.equal(dbFacts(db).definingFiles.get('Model'), undefined, 'names of a removed file are gone');
    // What features.ts and the path signal read per question, kept per index: they follow the commits above.
    const kept = dbFacts(db);
    assert.equal(kept.stemCounts.get('base'), undefined, 'the removed file stem is no longer counted');
    assert.equal(kept.stemCounts.get('token'), 1, 'the added file stem is counted');
    assert.deepEqual([...kept.pathFiles.get('token') ?? []].map((id) => kept.files.get(id)!.path), ['src/auth/token.ts'], 'the added file is found by its path term');
    assert.equal(kept.pathFiles.get('base'), undefined, 'the removed file is not found by its path term');
    writeFiles(root, { 'app/auth/session.py': 'class Session:\n    pass\n' });
    await runIndex(d, DEFAULT_CONFIG, db, false, { onlyPaths: ['app/auth/session.py'] });
    assert.equal(dbFacts(db).stemCounts.get('session'), 2, 'a namesake stem counts twice');
    assert.deepEqual([...dbFacts(db).pathFiles.get('session')!].map((id) => kept.files.get(id)!.path).sort(), ['app/auth/session.py', 'src/auth/session.ts']);
    await d.parser.dispose();
  });

  it('sorts names in code point order, as SQLite orders UTF-8', () => {
    const names = ['b', 'a', '\u{1F600}x', '\uFFFDy', 'B', 'ab', 'é'];
    const expected = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...names].sort(byCodePoint), expected);
  });
});

describe('import resolution indexes', () => {
  const scan = (paths: string[], from: string, source: string): string[] => {
    // The scan the suffix index replaced: the first path (in index order) ending with the import's path or stem.
    const rel = source.includes('/') || /\.(h|hh|hpp|hxx)$/.test(source) ? source : source.replace(/\./g, '/');
    for (const p of paths) {
      const stem = p.replace(/\.[^./]+$/, '');
      if (p === rel || p.endsWith(`/${rel}`) || stem === rel || stem.endsWith(`/${rel}`)) return [p];
    }
    void from;
    return [];
  };

  it('Java, C and Rust imports resolve to the first matching file in index order', () => {
    const paths = ['b/com/acme/Foo.kt', 'a/com/acme/Foo.java', 'inc/util.h', 'src/util.h', 'x/.h', 'foo-bar/src/lib.rs', 'crates/foo_bar/src/lib.rs', 'crates/foo_bar/src/io.rs'];
    const files = paths.map((path, id) => ({ id, path, language: path.endsWith('.rs') ? 'rust' : path.endsWith('.h') ? 'c' : 'java' }));
    const resolver = new ImportResolver(files);
    const java = { id: 99, path: 'z/Main.java', language: 'java' };
    for (const source of ['com.acme.Foo', 'acme.Foo', 'Foo', 'util.h', 'inc/util.h', 'nothing.Here', '']) {
      assert.deepEqual(resolver.resolve(java, source), scan(paths, java.path, source), source);
    }
    // Every tail of every path, with and without its extension, as an import names it.
    const tails = paths.flatMap((p) => [p, p.replace(/\.[^./]+$/, '')].flatMap((s) => s.split('/').map((_, i, parts) => parts.slice(i).join('/'))));
    for (const source of new Set(tails)) assert.deepEqual(resolver.resolve(java, source), scan(paths, java.path, source), `tail ${source}`);
    // Another crate: the first folder in index order that is `foo_bar/src` anywhere or `foo-bar/src` at the root.
    const rust = { id: 98, path: 'app/src/main.rs', language: 'rust' };
    assert.deepEqual(resolver.resolve(rust, 'foo_bar::io'), ['foo-bar/src/lib.rs']);
    const nestedFirst = new ImportResolver([...files.slice(6), ...files.slice(0, 6)]);
    assert.deepEqual(nestedFirst.resolve(rust, 'foo_bar::io'), ['crates/foo_bar/src/io.rs']);
    assert.deepEqual(resolver.resolve(rust, 'unknown::x'), []);
  });

  it('files of one scope resolve every source alike (the context resolves once per scope and source)', () => {
    const paths = [
      'web/src/app.ts', 'web/src/util.ts', 'web/src/util/index.ts', 'web/lib.js', 'pkg/mod/a.py', 'pkg/mod/b.py', 'pkg/mod/__init__.py', 'pkg/c.py',
      'svc/api/h.go', 'svc/api/g.go', 'crate/src/lib.rs', 'crate/src/io.rs', 'crate/src/net/mod.rs', 'crate/src/net/tcp.rs', 'crate/src/net/udp.rs',
      'j/com/x/A.java', 'j/com/x/B.java', 'p/App/Models/User.php', 'p/App/Http/Kernel.php', 'c/include/x.h', 'c/src/x.c', 'c/src/y.c',
    ];
    const language = (p: string): string => ({ ts: 'typescript', js: 'javascript', py: 'python', go: 'go', rs: 'rust', java: 'java', php: 'php', h: 'c', c: 'c' })[p.slice(p.lastIndexOf('.') + 1)]!;
    const files = paths.map((path, id) => ({ id, path, language: language(path) }));
    const resolver = new ImportResolver(files);
    const sources = ['./util', '../lib', '.', '..mod', '.b', 'pkg.mod.a', 'svc/api', 'super::io', 'self::tcp', 'crate::net::udp', 'com.x.B', 'App\\Models\\User', 'x.h', '../include/x.h'];
    let pairs = 0;
    for (const a of files) {
      for (const b of files) {
        if (a === b || resolver.scopeOf(a) !== resolver.scopeOf(b)) continue;
        pairs++;
        for (const s of sources) assert.deepEqual(resolver.resolve(a, s), resolver.resolve(b, s), `${a.path} and ${b.path} import ${s}`);
      }
    }
    assert.ok(pairs >= 10, 'the fixture has files sharing a scope');
    // Rust's scope is the file: a module's own folder follows from its name (mod.rs or not).
    const [mod, tcp] = [files.find((f) => f.path === 'crate/src/net/mod.rs')!, files.find((f) => f.path === 'crate/src/net/tcp.rs')!];
    assert.notDeepEqual(resolver.resolve(mod, 'super::io'), resolver.resolve(tcp, 'super::io'));
    assert.notEqual(resolver.scopeOf(mod), resolver.scopeOf(tcp));
  });
});
